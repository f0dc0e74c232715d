package dev.schedpolicy.engine.cgroup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * Against the real kernel, on every hierarchy this machine mounts (eleven on a v1 hybrid, one on v2): a group that a
 * container runtime made for us in each hierarchy (a docker build's own group) goes from all of them once nothing runs
 * in it, and the copies a killed maker left are swept.
 */
@EnabledOnOs(OS.LINUX)
@Tag("kernel")
class CgroupEverywhereITest {
    private final CgroupSystem system = CgroupSystem.detect();
    private final List<String> made = new ArrayList<>();
    private Process sleeper;

    @AfterEach
    void cleanUp() throws InterruptedException {
        if (sleeper != null) {
            sleeper.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        for (int i = made.size() - 1; i >= 0; i--) {
            system.removeEverywhere(made.get(i));
        }
    }

    /** Makes {@code path} in every writable hierarchy, as runc does for a --cgroup-parent; returns the directories. */
    private List<Path> makeEverywhere(final String path) {
        List<Path> dirs = new ArrayList<>();
        for (CgroupHierarchy h : system.hierarchies()) {
            if (h.readOnly()) {
                continue;
            }
            Path dir = h.dirOf(path);
            try {
                Files.createDirectory(dir);
                dirs.add(dir);
            } catch (IOException e) {
                // not ours to write: the hierarchy is left out
            }
        }
        made.add(path);
        return dirs;
    }

    @Test
    void shouldRemoveAGroupFromEveryHierarchyOnceNothingRunsInIt() throws Exception {
        String path = "/" + CgroupSystem.freshGroupName();
        List<Path> dirs = makeEverywhere(path);
        assumeTrue(dirs.stream().anyMatch(d -> d.equals(system.cpuDirOf(path))), "needs a writable cpu hierarchy (CI runs as root)");

        sleeper = new ProcessBuilder("sleep", "60").start();
        Files.writeString(system.cpuDirOf(path).resolve("cgroup.procs"), Long.toString(sleeper.pid()));
        assertThat(system.removeEverywhere(path)).as("a process still runs in the cpu hierarchy's copy").isFalse();
        assertThat(system.cpuDirOf(path)).isDirectory();

        sleeper.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        assertThat(system.removeEverywhere(path)).isTrue();
        assertThat(dirs).as("gone from all %d hierarchies", dirs.size()).allSatisfy(d -> assertThat(d).doesNotExist());
        assertThat(system.removeEverywhere(path)).as("nothing left to remove is done").isTrue();
    }

    @Test
    void shouldSweepTheCopiesADeadMakerLeftInEveryHierarchy() throws Exception {
        String parent = "/" + CgroupSystem.freshGroupName();
        List<Path> parents = makeEverywhere(parent);
        assumeTrue(parents.stream().anyMatch(d -> d.equals(system.cpuDirOf(parent))), "needs a writable cpu hierarchy (CI runs as root)");
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor(10, TimeUnit.SECONDS);
        String dead = parent + "/" + GroupNames.PREFIX + gone.pid() + "-000000000000-0";
        String alive = parent + "/" + CgroupSystem.freshGroupName();
        List<Path> deadDirs = makeEverywhere(dead);
        List<Path> aliveDirs = makeEverywhere(alive);

        List<Path> removed = system.sweepStaleEverywhere(parent);

        assertThat(removed).containsExactlyInAnyOrderElementsOf(deadDirs);
        assertThat(deadDirs).allSatisfy(d -> assertThat(d).doesNotExist());
        assertThat(aliveDirs).as("a live maker's group stays, though empty").allSatisfy(d -> assertThat(d).isDirectory());
    }
}
