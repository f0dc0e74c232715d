package dev.schedpolicy.engine.cgroup;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Group names across class loads of the engine in one JVM. A Jenkins agent loads the engine's classes again with
 * every connection (a reconnect, a controller restart) while its JVM, and so its PID, stays; a name made from the PID
 * and a counter that restarts with the classes was given again once the earlier group had been removed, and an
 * earlier block's end then killed and removed another build's group.
 */
class GroupNamesTest {
    @TempDir
    Path parent;

    @Test
    void shouldNotGiveAFreedNameAgainWhenTheEngineIsLoadedAgainInTheSameJvm() throws Exception {
        Path first = mkdirInFreshClassLoad();
        Files.delete(first); // the earlier connection's reaper removed it once empty

        Path second = mkdirInFreshClassLoad();

        assertThat(second.getFileName().toString()).as("name after the engine was loaded again")
                .isNotEqualTo(first.getFileName().toString())
                .startsWith(GroupNames.PREFIX + ProcessHandle.current().pid() + "-");
    }

    @Test
    void shouldKeepTheCreatorPidReadableForTheSweeper() {
        Path dir = GroupNames.mkdirUnique(new CgroupFiles(), parent);

        assertThat(GroupNames.creatorPid(dir)).hasValue(ProcessHandle.current().pid());
        assertThat(GroupNames.isOurs(dir)).isTrue();
    }

    /** GroupNames.mkdirUnique as a new connection's copy of the engine runs it: its own classes, its own statics. */
    private Path mkdirInFreshClassLoad() throws Exception {
        URL classes = GroupNames.class.getProtectionDomain().getCodeSource().getLocation();
        try (URLClassLoader load = new URLClassLoader(new URL[] {classes}, ClassLoader.getPlatformClassLoader())) {
            Class<?> names = Class.forName(GroupNames.class.getName(), true, load);
            assertThat(names).isNotSameAs(GroupNames.class);
            Class<?> filesType = Class.forName(CgroupFiles.class.getName(), true, load);
            Constructor<?> newFiles = filesType.getDeclaredConstructor();
            newFiles.setAccessible(true);
            Method mkdir = names.getDeclaredMethod("mkdirUnique", filesType, Path.class);
            mkdir.setAccessible(true);
            return (Path) mkdir.invoke(null, newFiles.newInstance(), parent);
        }
    }
}
