package dev.schedpolicy.engine.launch;

import dev.schedpolicy.engine.jna.JnaKernel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The state directory's predictable name in a shared /tmp can be pre-created by anyone; the owner's launches
 * then failed for good. A pre-empted name is skipped for one nobody else can create.
 */
@EnabledOnOs(OS.LINUX)
class StateDirsTest {
    private static final int UID = JnaKernel.get().geteuid();

    @TempDir
    Path root;

    private Path sharedTmp() throws Exception {
        Path tmp = Files.createDirectory(root.resolve("tmp"));
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxrwxrwx"));
        return tmp;
    }

    private Path home() throws Exception {
        Path existing = root.resolve("home");
        if (Files.isDirectory(existing)) {
            return existing;
        }
        return Files.createDirectory(root.resolve("home"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    }

    @Test
    void shouldUseTheSharedTmpNameWhenItIsFree() throws Exception {
        Path tmp = sharedTmp();

        Path chosen = StateDirs.choose(UID, Map.of("HOME", home().toString()), tmp);

        assertThat(chosen).isEqualTo(tmp.resolve("schedpolicy-" + UID));
        assertThat(chosen).as("created on first use only").doesNotExist();
        StateDirs.ensurePrivate(chosen, UID);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(chosen))).isEqualTo("rwx------");
        assertThat(StateDirs.choose(UID, Map.of("HOME", home().toString()), tmp)).isEqualTo(chosen);
    }

    @Test
    void shouldPreferThePerUserRuntimeDirectory() throws Exception {
        Path runtime = Files.createDirectory(root.resolve("run"), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));

        assertThat(StateDirs.choose(UID, Map.of("XDG_RUNTIME_DIR", runtime.toString()), sharedTmp())).isEqualTo(runtime.resolve("schedpolicy"));
    }

    @Test
    void shouldIgnoreARuntimeDirectoryOthersCanWrite() throws Exception {
        Path runtime = Files.createDirectory(root.resolve("run"));
        Files.setPosixFilePermissions(runtime, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path tmp = sharedTmp();

        assertThat(StateDirs.choose(UID, Map.of("XDG_RUNTIME_DIR", runtime.toString()), tmp)).isEqualTo(tmp.resolve("schedpolicy-" + UID));
    }

    @Test
    void shouldSkipANamePreCreatedAsASymlinkOrAFile() throws Exception {
        Path tmp = sharedTmp();
        Path home = home();
        Path target = Files.createDirectory(root.resolve("attacker"));
        Files.createSymbolicLink(tmp.resolve("schedpolicy-" + UID), target);

        Path chosen = StateDirs.choose(UID, Map.of("HOME", home.toString()), tmp);

        assertThat(chosen).isEqualTo(home.resolve(".cache/schedpolicy"));
        assertThat(Files.isSymbolicLink(tmp.resolve("schedpolicy-" + UID))).isTrue();
        assertThat(target.toFile().list()).isEmpty();

        Files.delete(tmp.resolve("schedpolicy-" + UID));
        Files.writeString(tmp.resolve("schedpolicy-" + UID), "x");
        assertThat(StateDirs.choose(UID, Map.of("HOME", home.toString()), tmp)).isEqualTo(home.resolve(".cache/schedpolicy"));
    }

    @Test
    void shouldSkipANamePreCreatedByAnotherUser() throws Exception {
        assumeTrue(UID == 0, "only root can give a directory to another user (CI runs as root)");
        Path tmp = sharedTmp();
        Path home = home();
        Path foreign = Files.createDirectory(tmp.resolve("schedpolicy-" + UID));
        Files.setAttribute(foreign, "unix:uid", 65534, LinkOption.NOFOLLOW_LINKS);

        assertThat(StateDirs.choose(UID, Map.of("HOME", home.toString()), tmp)).isEqualTo(home.resolve(".cache/schedpolicy"));
        assertThat(Files.getAttribute(foreign, "unix:uid", LinkOption.NOFOLLOW_LINKS)).isEqualTo(65534);
    }

    @Test
    void shouldIgnoreAHomeOfAnotherUser() throws Exception {
        assumeTrue(UID == 0, "only root can give a directory to another user (CI runs as root)");
        Path tmp = sharedTmp();
        Path home = home();
        Files.setAttribute(home, "unix:uid", 65534, LinkOption.NOFOLLOW_LINKS);
        Files.setAttribute(Files.createDirectory(tmp.resolve("schedpolicy-" + UID)), "unix:uid", 65534, LinkOption.NOFOLLOW_LINKS);

        assertThat(StateDirs.choose(UID, Map.of("HOME", home.toString()), tmp)).as("nothing usable: the /tmp name, whose use fails")
                .isEqualTo(tmp.resolve("schedpolicy-" + UID));
        assertThat(home.resolve(".cache")).doesNotExist();
    }
}
