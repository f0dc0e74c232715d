package dev.schedpolicy.engine.launch;

import dev.schedpolicy.engine.KernelRelease;
import dev.schedpolicy.engine.cgroup.CgroupHierarchy;
import dev.schedpolicy.engine.cgroup.CgroupSystem;
import dev.schedpolicy.engine.policy.Policy;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

/**
 * 200 wrapped launches through both mechanisms, some under a real cgroup v1 group, some killed mid-flight,
 * some with aborted or broken handshakes; afterwards nothing of ours may remain: no cgroup, no handshake
 * FIFO or other file beside the shim, no process (not even an orphan that was reparented away from this
 * JVM, found by a marker in its environment), no file descriptor and no launch thread.
 */
@EnabledOnOs(OS.LINUX)
@Tag("kernel")
class NoLeakITest {
    /** The kernel lab (5x slower, four kernels) runs 66: still every scenario with every group variant twice. */
    private static final int LAUNCHES = Integer.getInteger("schedpolicy.noleak.launches", 200);
    private static final int FD_TOLERANCE = 4;
    private static final Duration SETTLE = Duration.ofSeconds(5);
    private static final String BASE = "batch+nice19+io-idle";
    private static final String[] GROUP_PARTS = {"", "+quota50", "+" + KernelRelease.idleGroupPart()};
    private static final List<String> TREE = List.of("sh", "-c", "sleep 5 & sleep 5; wait");
    private static final List<String> SLEEP = List.of("sleep", "5");
    private static final List<String> TRUE = List.of("/bin/true");

    /** Each launch takes one of these in turn; with three group variants, every pairing occurs several times. */
    enum Scenario {
        THREAD_RUN_TO_END,
        THREAD_DESTROY_TREE,
        THREAD_DESTROY_FORCIBLY,
        THREAD_COMMAND_NOT_FOUND,
        PARK_RUN_TO_END,
        PARK_KILL_TREE_AFTER_RELEASE,
        PARK_DESTROY_FORCIBLY_AFTER_RELEASE,
        PARK_ABORT_BEFORE_START,
        PARK_ABORT_WHILE_PARKED,
        PARK_KILLED_WHILE_PARKED,
        PARK_PREFIX_DROPPED,
    }

    @TempDir
    Path state;

    private final String marker = UUID.randomUUID().toString();
    private final long self = ProcessHandle.current().pid();
    private LaunchConfig config;

    @Test
    void shouldLeaveNothingBehindAfterTwoHundredLaunches() throws Exception {
        config = LaunchConfig.defaults().withStateDir(state);
        // warm-up: JNA, the cgroup layout, the handshake reader pool and the JDK process reaper hold their
        // descriptors for the JVM's lifetime, so they belong in the baseline
        for (Scenario s : Scenario.values()) {
            launch(s, Policy.parse(BASE + "+quota50"));
        }
        awaitNoDescendants();
        long fdsBefore = openFds();
        long started = System.nanoTime();

        Map<Scenario, Integer> counts = new EnumMap<>(Scenario.class);
        for (int i = 0; i < LAUNCHES; i++) {
            Scenario s = Scenario.values()[i % Scenario.values().length];
            String group = GROUP_PARTS[i / Scenario.values().length % GROUP_PARTS.length];
            launch(s, Policy.parse(BASE + group));
            counts.merge(s, 1, Integer::sum);
        }
        long elapsedMs = (System.nanoTime() - started) / 1_000_000;

        assertThat(counts).hasSize(Scenario.values().length);
        awaitNoDescendants();
        assertThat(processesWithMarker()).as("processes carrying this test's marker (orphans included)").isEmpty();
        assertThat(ourGroups()).as("cgroups named schedpolicy-" + self + "-*").isEmpty();
        assertThat(stateEntries()).as("state directory entries").singleElement().asString()
                .startsWith(ShimInstaller.FILE_NAME.substring(0, "park-shim-".length())).endsWith(".sh");
        assertThat(launchThreads()).as("live schedpolicy-launch threads").isZero();
        long fdsAfter = openFds();
        assertThat(fdsAfter).as("open descriptors after %d launches (before: %d)", LAUNCHES, fdsBefore)
                .isBetween(fdsBefore - FD_TOLERANCE, fdsBefore + FD_TOLERANCE);
        System.out.printf("no-leak: %d launches in %d ms, fds %d -> %d%n", LAUNCHES, elapsedMs, fdsBefore, fdsAfter);
    }

    private void launch(final Scenario s, final Policy policy) throws Exception {
        switch (s) {
            case THREAD_RUN_TO_END -> {
                try (PolicedProcess p = threadStart(TRUE, policy)) {
                    assertThat(p.process().waitFor()).isZero();
                    closeStreams(p.process());
                }
            }
            case THREAD_DESTROY_TREE -> {
                PolicedProcess p = threadStart(TREE, policy);
                awaitDescendants(p.process(), 2);
                p.destroyTree();
                assertThat(p.process().waitFor()).isEqualTo(137);
                closeStreams(p.process());
            }
            case THREAD_DESTROY_FORCIBLY -> {
                try (PolicedProcess p = threadStart(SLEEP, policy)) {
                    awaitRunning(p.process());
                    p.process().destroyForcibly();
                    assertThat(p.process().waitFor()).isEqualTo(137);
                    closeStreams(p.process());
                }
            }
            case THREAD_COMMAND_NOT_FOUND -> assertThatThrownBy(() -> threadStart(List.of("/no/such/binary"), policy))
                    .isInstanceOf(IOException.class);
            case PARK_RUN_TO_END -> {
                Handshake h = ParkAndRelease.prepare(policy, config);
                Process p = parkStart(h, TRUE);
                try (PolicedLaunch l = h.release(Duration.ofSeconds(10))) {
                    assertThat(l.pid()).isEqualTo(p.pid());
                    assertThat(p.waitFor()).isZero();
                }
                closeStreams(p);
            }
            case PARK_KILL_TREE_AFTER_RELEASE -> {
                Handshake h = ParkAndRelease.prepare(policy, config);
                Process p = parkStart(h, TREE);
                try (PolicedLaunch l = h.release(Duration.ofSeconds(10))) {
                    awaitDescendants(p, 2);
                    // the order PolicedProcess.destroyTree uses: list, kill the parent, then the listed children
                    List<ProcessHandle> children = p.descendants().toList();
                    p.destroyForcibly();
                    children.forEach(ProcessHandle::destroyForcibly);
                    assertThat(p.waitFor()).isEqualTo(137);
                }
                closeStreams(p);
            }
            case PARK_DESTROY_FORCIBLY_AFTER_RELEASE -> {
                Handshake h = ParkAndRelease.prepare(policy, config);
                Process p = parkStart(h, SLEEP);
                PolicedLaunch l = h.release(Duration.ofSeconds(10));
                awaitRunning(p);
                p.destroyForcibly();
                assertThat(p.waitFor()).isEqualTo(137);
                l.close();
                closeStreams(p);
            }
            case PARK_ABORT_BEFORE_START -> {
                try (Handshake h = ParkAndRelease.prepare(policy, config)) {
                    assertThat(h.commandPrefix()).hasSize(3);
                }
            }
            case PARK_ABORT_WHILE_PARKED -> {
                Process p;
                try (Handshake h = ParkAndRelease.prepare(policy, config)) {
                    p = parkStart(h, TRUE);
                    h.abort("the no-leak test says no");
                }
                assertThat(p.waitFor()).isEqualTo(125);
                closeStreams(p);
            }
            case PARK_KILLED_WHILE_PARKED -> {
                Handshake h = ParkAndRelease.prepare(policy, config);
                Process p = parkStart(h, TRUE);
                p.destroyForcibly();
                p.waitFor();
                // it died before or after reporting its PID: release fails either way, and cleans up
                assertThatThrownBy(() -> h.release(Duration.ofMillis(300))).isInstanceOf(PolicyApplyException.class);
                closeStreams(p);
            }
            case PARK_PREFIX_DROPPED -> {
                Handshake h = ParkAndRelease.prepare(policy, config);
                Process p = start(TRUE);
                assertThatThrownBy(() -> h.release(Duration.ofMillis(100))).isInstanceOf(PolicyApplyException.class)
                        .hasMessageContaining("did not reach the policy shim");
                assertThat(p.waitFor()).isZero();
                closeStreams(p);
            }
            default -> fail("unhandled scenario " + s);
        }
    }

    private PolicedProcess threadStart(final List<String> command, final Policy policy) throws IOException {
        return new PolicyThreadLauncher(config).start(builder(command), policy);
    }

    private Process parkStart(final Handshake h, final List<String> command) throws IOException {
        List<String> argv = new ArrayList<>(h.commandPrefix());
        argv.addAll(command);
        return start(argv);
    }

    private Process start(final List<String> command) throws IOException {
        return builder(command).start();
    }

    private ProcessBuilder builder(final List<String> command) {
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().put("SCHEDPOLICY_NO_LEAK_MARKER", marker);
        return pb;
    }

    private static void closeStreams(final Process p) throws IOException {
        p.getOutputStream().close();
        p.getInputStream().close();
        p.getErrorStream().close();
    }

    /** "Running sleep 5": the exec happened, so the kill lands mid-flight and not during the launch. */
    private static void awaitRunning(final Process p) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (System.nanoTime() < deadline) {
            String cmd = p.info().command().orElse("");
            if (cmd.endsWith("sleep")) {
                return;
            }
            Thread.sleep(2);
        }
        fail("process " + p.pid() + " never reached sleep (command " + p.info().command() + ")");
    }

    private static void awaitDescendants(final Process p, final int count) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (p.descendants().count() < count) {
            if (System.nanoTime() > deadline) {
                fail("process " + p.pid() + " never got " + count + " children");
            }
            Thread.sleep(2);
        }
    }

    /** Reaping is asynchronous in the JDK; what is still a descendant after the bound is a leak. */
    private static void awaitNoDescendants() throws InterruptedException {
        long deadline = System.nanoTime() + SETTLE.toNanos();
        while (ProcessHandle.current().descendants().findAny().isPresent() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(ProcessHandle.current().descendants().map(h -> h.pid() + " " + h.info().commandLine().orElse("?")))
                .as("live descendants of this JVM after %s", SETTLE).isEmpty();
    }

    private List<String> processesWithMarker() throws IOException {
        List<String> found = new ArrayList<>();
        byte[] needle = ("SCHEDPOLICY_NO_LEAK_MARKER=" + marker).getBytes(StandardCharsets.US_ASCII);
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            for (Path dir : procs.filter(d -> d.getFileName().toString().matches("\\d+")).toList()) {
                try {
                    if (indexOf(Files.readAllBytes(dir.resolve("environ")), needle) >= 0) {
                        found.add(dir.getFileName() + " " + Files.readString(dir.resolve("cmdline")).replace('\0', ' '));
                    }
                } catch (NoSuchFileException | java.nio.file.AccessDeniedException gone) {
                    // exited while we looked, or a kernel thread
                } catch (IOException e) {
                    if (!String.valueOf(e.getMessage()).contains("No such process")) {
                        throw e;
                    }
                }
            }
        }
        return found;
    }

    private static int indexOf(final byte[] hay, final byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    /**
     * Every mounted hierarchy (v1 cpu and cpuacct, wherever and however co-mounted, and v2), walked from its
     * mount point: systemd's v1 layout makes /sys/fs/cgroup/cpu a symlink, which Files.walk would not enter.
     */
    private List<Path> ourGroups() throws IOException {
        String prefix = "schedpolicy-" + self + "-";
        List<Path> found = new ArrayList<>();
        List<Path> roots = CgroupSystem.detect().hierarchies().stream().map(CgroupHierarchy::mountPoint).toList();
        assertThat(roots).as("mounted cgroup hierarchies").isNotEmpty();
        for (Path root : roots) {
            try (Stream<Path> walk = Files.walk(root, 6)) {
                walk.filter(Files::isDirectory).filter(d -> d.getFileName().toString().startsWith(prefix)).forEach(found::add);
            }
        }
        return found;
    }

    private List<String> stateEntries() throws IOException {
        try (Stream<Path> s = Files.list(state)) {
            return s.map(p -> p.getFileName().toString()).toList();
        }
    }

    private static long launchThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals("schedpolicy-launch"))
                .filter(Thread::isAlive).count();
    }

    private static long openFds() {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
