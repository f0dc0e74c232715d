package dev.schedpolicy.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * An unprivileged system user for tests that must not run as root: created with useradd when missing (CI's
 * .ci/run creates it too), with a world-readable copy of the test class path (it cannot read /root/.m2) and
 * its own home. Commands run through setpriv, which drops every capability with the uid change.
 */
final class SecondUser implements AutoCloseable {
    static final String NAME = "schedpolicy-ci";

    private final int uid;
    private final int gid;
    private final Path root;
    private final Path home;
    private final String classPath;
    private final Path tmp;

    private SecondUser(final int uid, final int gid, final Path root, final Path home, final String classPath) throws IOException {
        this.uid = uid;
        this.gid = gid;
        this.root = root;
        this.home = home;
        this.classPath = classPath;
        this.tmp = Files.createDirectory(root.resolve("tmp"));
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxrwxrwx"));
    }

    /** Creates the user if needed; skips the calling test (with the reason) when this JVM is not root. */
    static SecondUser create() throws IOException {
        assumeTrue(ProcessHandle.current().info().user().orElse("").equals("root"),
                "creating and switching to a second user needs root (CI runs the tests as root)");
        if (CliRunner.exec(List.of("id", "-u", NAME)).exitCode() != 0) {
            CliRunner.Result added = CliRunner.exec(List.of("useradd", "--system", "--no-create-home", "--home-dir", "/nonexistent",
                    "--shell", "/usr/sbin/nologin", NAME));
            if (added.exitCode() != 0 && CliRunner.exec(List.of("id", "-u", NAME)).exitCode() != 0) {
                throw new IllegalStateException("cannot create user " + NAME + ": " + added.err());
            }
        }
        int uid = Integer.parseInt(CliRunner.exec(List.of("id", "-u", NAME)).out().trim());
        int gid = Integer.parseInt(CliRunner.exec(List.of("id", "-g", NAME)).out().trim());
        Path root = Files.createTempDirectory("schedpolicy-ci-");
        Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path cp = Files.createDirectory(root.resolve("cp"));
        Files.setPosixFilePermissions(cp, PosixFilePermissions.fromString("rwxr-xr-x"));
        List<String> entries = new ArrayList<>();
        int n = 0;
        for (String entry : System.getProperty("java.class.path").split(":")) {
            Path source = Path.of(entry);
            if (!Files.exists(source)) {
                continue;
            }
            Path copy = cp.resolve(n++ + "-" + source.getFileName());
            copyReadable(source, copy);
            entries.add(copy.toString());
        }
        Path home = Files.createDirectory(root.resolve("home"));
        chown(home, uid, gid);
        Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwx------"));
        return new SecondUser(uid, gid, root, home, String.join(":", entries));
    }

    int uid() {
        return uid;
    }

    int gid() {
        return gid;
    }

    Path home() {
        return home;
    }

    /** A world-readable scratch directory of this run, removed on close. */
    Path scratch(final String name) throws IOException {
        Path dir = Files.createDirectories(root.resolve(name));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        return dir;
    }

    /**
     * Runs as this user with a minimal environment (HOME its own, no XDG_RUNTIME_DIR) and a temporary directory of
     * this run, so nothing it makes stays in /tmp.
     */
    CliRunner runner() {
        return CliRunner.of(prefix(), classPath, List.of("-XX:-UsePerfData", "-Djava.io.tmpdir=" + tmp));
    }

    List<String> prefix() {
        return List.of("setpriv", "--reuid=" + uid, "--regid=" + gid, "--clear-groups", "--", "env", "-i",
                "PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin", "HOME=" + home, "LANG=C.UTF-8");
    }

    /** {@code sh -c SCRIPT} as this user. */
    CliRunner.Result shell(final String script) {
        List<String> argv = new ArrayList<>(prefix());
        argv.addAll(List.of("sh", "-c", script));
        return CliRunner.exec(argv);
    }

    static void chown(final Path p, final int uid, final int gid) throws IOException {
        Files.setAttribute(p, "unix:uid", uid, LinkOption.NOFOLLOW_LINKS);
        Files.setAttribute(p, "unix:gid", gid, LinkOption.NOFOLLOW_LINKS);
    }

    private static void copyReadable(final Path source, final Path target) throws IOException {
        if (Files.isDirectory(source)) {
            try (Stream<Path> walk = Files.walk(source)) {
                for (Path p : walk.toList()) {
                    Path t = target.resolve(source.relativize(p).toString());
                    if (Files.isDirectory(p)) {
                        Files.createDirectories(t);
                        Files.setPosixFilePermissions(t, PosixFilePermissions.fromString("rwxr-xr-x"));
                    } else {
                        Files.copy(p, t, StandardCopyOption.REPLACE_EXISTING);
                        Files.setPosixFilePermissions(t, PosixFilePermissions.fromString("rw-r--r--"));
                    }
                }
            }
        } else {
            Files.copy(source, target, StandardCopyOption.REPLACE_EXISTING);
            Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rw-r--r--"));
        }
    }

    @Override
    public void close() {
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove " + root, e);
        }
    }
}
