package dev.schedpolicy.engine.container;

import dev.schedpolicy.engine.cgroup.CgroupSystem;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assumptions.abort;

/**
 * A real Docker daemon for the container tests: the one DOCKER_HOST names (.ci/run starts a private one), or the
 * default socket. Tests that need one skip with one line saying what is missing. The image is imported from the
 * host's static busybox when the daemon does not have it (no registry is reachable here). Every container a test
 * starts carries a label, so {@link #removeOurs()} leaves nothing behind even when a test fails half way.
 */
public final class TestDocker implements AutoCloseable {
    /** The image the tests run: busybox and its applet links, nothing else. */
    public static final String IMAGE = System.getenv().getOrDefault("SCHEDPOLICY_TEST_IMAGE", "schedpolicy-mini:1");
    public static final String LABEL = "schedpolicy.test=" + ProcessHandle.current().pid();
    private static final List<String> BUSYBOX = List.of("/bin/busybox", "/usr/bin/busybox");

    private final Map<String, String> env;
    private final List<Path> parents = new ArrayList<>();

    private TestDocker(final Map<String, String> env) {
        this.env = env;
    }

    /** The daemon, or the test is skipped saying why. */
    public static TestDocker connect() {
        Map<String, String> env = new HashMap<>(System.getenv());
        TestDocker docker = new TestDocker(env);
        Result info;
        try {
            info = docker.run("docker", "info", "--format", "{{.CgroupDriver}}");
        } catch (IOException e) {
            abort("no docker client on the PATH (.ci/run installs docker.io): " + e.getMessage());
            throw new IllegalStateException(e);
        }
        if (info.status() != 0) {
            abort("no docker daemon at " + env.getOrDefault("DOCKER_HOST", "the default socket") + " (.ci/run starts a private one): "
                    + info.out().lines().findFirst().orElse(""));
        }
        docker.ensureImage();
        return docker;
    }

    /** The environment a container command runs with (DOCKER_HOST ...). */
    public Map<String, String> env() {
        return Map.copyOf(env);
    }

    public record Result(int status, String out) {
    }

    /** Runs a command with the daemon's environment; stdout and stderr together. */
    public Result run(final String... argv) throws IOException {
        return run(List.of(argv));
    }

    public Result run(final List<String> argv) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(argv).redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p = pb.start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(argv + " did not finish within 60 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        return new Result(p.exitValue(), out.trim());
    }

    /** As {@link #run(String...)}, failing the test with the command's output when it fails. */
    public String ok(final String... argv) throws IOException {
        Result r = run(argv);
        if (r.status() != 0) {
            throw new IllegalStateException(String.join(" ", argv) + " exited " + r.status() + ": " + r.out());
        }
        return r.out();
    }

    /** The host PID of a running container's main process. */
    public long pidOf(final String container) throws IOException {
        return Long.parseLong(ok("docker", "inspect", "-f", "{{.State.Pid}}", container));
    }

    /**
     * A fresh cpu cgroup for the test's containers, directly under the root of the cpu hierarchy, with cpu.idle 1
     * when {@code idle}: a private stand-in for the machine-wide idle parent. Removed by {@link #close()} in every
     * hierarchy (the cgroupfs driver creates the path in each v1 hierarchy the container uses).
     */
    public Path parent(final String name, final boolean idle) throws IOException {
        CgroupSystem system = CgroupSystem.detect();
        Path dir = system.cpuDirOf("/").resolve(name + "-" + ProcessHandle.current().pid());
        Files.createDirectories(dir);
        parents.add(dir);
        if (idle) {
            Files.writeString(dir.resolve("cpu.idle"), "1");
        }
        return dir;
    }

    private void ensureImage() {
        try {
            if (run("docker", "image", "inspect", IMAGE).status() == 0) {
                return;
            }
            Path busybox = BUSYBOX.stream().map(Path::of).filter(Files::isExecutable).findFirst().orElse(null);
            if (busybox == null) {
                abort("the image " + IMAGE + " is missing and there is no static busybox to build it from (.ci/run installs busybox-static)");
            }
            Path dir = Files.createTempDirectory("schedpolicy-image");
            try {
                Files.createDirectories(dir.resolve("bin"));
                Files.copy(busybox, dir.resolve("bin/busybox"));
                Files.createDirectories(dir.resolve("tmp"));
                for (String applet : ok(busybox.toString(), "--list").lines().toList()) {
                    if (!"busybox".equals(applet)) {
                        Files.createSymbolicLink(dir.resolve("bin").resolve(applet), Path.of("busybox"));
                    }
                }
                ok("sh", "-c", "tar -C '" + dir + "' -c . | docker import - " + IMAGE);
            } finally {
                try (Stream<Path> walk = Files.walk(dir)) {
                    for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                        Files.deleteIfExists(p);
                    }
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot prepare the test image " + IMAGE + ": " + e.getMessage(), e);
        }
    }

    /** Removes every container this JVM's tests started (they carry {@link #LABEL}). */
    public void removeOurs() throws IOException {
        String ids = ok("docker", "ps", "-aq", "--filter", "label=" + LABEL);
        if (!ids.isBlank()) {
            List<String> rm = new ArrayList<>(List.of("docker", "rm", "-f"));
            rm.addAll(ids.lines().toList());
            ok(rm.toArray(new String[0]));
        }
    }

    /** Removes the test's containers, then its parents in every cgroup hierarchy (deepest first). */
    @Override
    public void close() throws IOException {
        removeOurs();
        for (Path parent : parents) {
            removeGroup(parent);
            String name = parent.getFileName().toString();
            try (Stream<Path> mounts = Files.list(Path.of("/sys/fs/cgroup"))) {
                for (Path mount : mounts.toList()) {
                    removeGroup(mount.resolve(name));
                }
            }
        }
    }

    /** rmdir of a cgroup: its children first; the kernel removes the control files with it. */
    private static void removeGroup(final Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return;
        }
        try (Stream<Path> children = Files.list(dir)) {
            for (Path child : children.filter(Files::isDirectory).toList()) {
                removeGroup(child);
            }
        }
        for (int attempt = 0; ; attempt++) {
            try {
                Files.delete(dir);
                return;
            } catch (IOException e) {
                if (attempt > 100) {
                    throw e;
                }
                try {
                    Thread.sleep(20); // EBUSY while the runtime's last task of the group is still exiting
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }
}
