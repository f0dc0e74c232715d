package dev.schedpolicy.engine.container;


import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

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

    private final Map<String, String> env;
    private final TestCgroupParents parents = new TestCgroupParents();

    /** Whether Docker's default parent (/docker, cgroupfs driver) was there before: if not, a test that used it removes it. */
    private final boolean defaultParentBefore = java.nio.file.Files.exists(Path.of("/sys/fs/cgroup/cpu/docker"))
            || java.nio.file.Files.exists(Path.of("/sys/fs/cgroup/docker"));

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
     * A fresh cpu cgroup for the test's containers directly under the root of the cpu hierarchy (cpu.idle 1 when
     * {@code idle}), removed by {@link #close()}; see {@link TestCgroupParents}.
     */
    public Path parent(final String name, final boolean idle) throws IOException {
        return parents.create(name, idle);
    }

    private void ensureImage() {
        try {
            if (run("docker", "image", "inspect", IMAGE).status() == 0) {
                return;
            }
            TestImage.importInto(List.of("docker", "import", "-", IMAGE), this::ok);
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

    /** Removes the test's containers, then its parents in every cgroup hierarchy. */
    @Override
    public void close() throws IOException {
        removeOurs();
        parents.close();
        if (!defaultParentBefore) {
            parents.removeEverywhere("docker"); // runc made it for a container in Docker's default place; empty now
        }
    }
}
