package dev.schedpolicy.engine.launch;

import dev.schedpolicy.engine.policy.Policy;
import dev.schedpolicy.engine.proc.ProcFs;
import dev.schedpolicy.engine.proc.TaskStat;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

/**
 * Wrapped launches through both mechanisms, with and without a real cgroup v1 group: a tenth SIGKILLed
 * mid-flight, a tenth with a missing command, a twentieth whose engine JVM is SIGKILLed while the command runs
 * or while it is parked, the rest run to the end or aborted in every way a handshake can end (see
 * {@link LeakPlan}). Afterwards nothing of ours may remain: no cgroup, no handshake FIFO or other file beside
 * the shim, no process (not even an orphan that was reparented away, found by a marker in its environment), no
 * file descriptor and no launch thread; a parked command whose engine died never ran, and a running one stays
 * policed. The groups and handshakes a killed engine leaves are removed by the next engine's start.
 * 200 launches in the default build; the full run: {@code -Dschedpolicy.noLeak.launches=1000} (docs/no-leak.md).
 */
@EnabledOnOs(OS.LINUX)
@Tag("kernel")
class NoLeakITest {
    private static final int LAUNCHES = Integer.getInteger("schedpolicy.noLeak.launches", 200);
    private static final int FD_TOLERANCE = 4;
    /** A bound, not a wait: 10 s was too short once for a shim to see its dead engine's EOF on an emulated 5.10 guest. */
    private static final Duration SETTLE = Duration.ofSeconds(30);
    private static final String BASE = "batch+nice19+io-idle";
    private static final List<String> TREE = List.of("sh", "-c", "sleep 30 & sleep 30; wait");
    private static final List<String> SLEEP = List.of("sleep", "30");
    private static final List<String> TRUE = List.of("/bin/true");
    private static final List<String> MISSING = List.of("/no/such/binary");

    @TempDir
    Path state;

    @TempDir
    Path work;

    private final String marker = UUID.randomUUID().toString();
    private final long self = ProcessHandle.current().pid();
    private final List<Long> killedEngines = new ArrayList<>();
    private int orphansSeenPoliced;
    private int groupsLeftByKilledEngines;
    private LaunchConfig config;

    @Test
    void shouldLeaveNothingBehindAfterManyLaunches() throws Exception {
        config = LaunchConfig.defaults().withStateDir(state);
        // warm-up: JNA, the cgroup layout, the handshake reader pool and the JDK process reaper hold their
        // descriptors for the JVM's lifetime, so they belong in the baseline
        for (LeakPlan.Kind k : LeakPlan.Kind.values()) {
            if (!k.engineKilled()) {
                launch(k, BASE + "+quota50");
            }
        }
        awaitNoDescendants();
        long fdsBefore = openFds();
        long started = System.nanoTime();

        List<LeakPlan.Launch> plan = LeakPlan.of(LAUNCHES);
        Map<LeakPlan.Kind, Integer> counts = new EnumMap<>(LeakPlan.Kind.class);
        for (LeakPlan.Launch l : plan) {
            launch(l.kind(), BASE + l.groupPart());
            counts.merge(l.kind(), 1, Integer::sum);
        }
        long elapsedMs = (System.nanoTime() - started) / 1_000_000;

        assertThat(plan).hasSize(LAUNCHES);
        assertThat(counts).hasSize(LeakPlan.Kind.values().length);
        awaitNoDescendants();
        awaitNoProcessWithMarker();
        nextEngineStart();
        assertThat(CgroupLeftovers.groupsOf(self)).as("cgroups named schedpolicy-" + self + "-*").isEmpty();
        for (long engine : killedEngines) {
            assertThat(CgroupLeftovers.groupsOf(engine)).as("cgroups of the SIGKILLed engine %d after the next start", engine).isEmpty();
        }
        assertThat(stateEntries()).as("state directory entries").singleElement().asString()
                .startsWith(ShimInstaller.FILE_NAME.substring(0, "park-shim-".length())).endsWith(".sh");
        assertThat(launchThreads()).as("live schedpolicy-launch threads").isZero();
        long fdsAfter = openFds();
        assertThat(fdsAfter).as("open descriptors after %d launches (before: %d)", LAUNCHES, fdsBefore)
                .isBetween(fdsBefore - FD_TOLERANCE, fdsBefore + FD_TOLERANCE);
        System.out.printf("no-leak: %d launches in %d ms (%d SIGKILLed mid-flight, %d missing commands, %d engines"
                + " SIGKILLed, %d of their running commands seen still policed, %d groups left by them and swept by"
                + " the next start), fds %d -> %d%n", LAUNCHES, elapsedMs,
                counts.entrySet().stream().filter(e -> e.getKey().sigkillMidFlight()).mapToInt(Map.Entry::getValue).sum(),
                counts.entrySet().stream().filter(e -> e.getKey().missingCommand()).mapToInt(Map.Entry::getValue).sum(),
                killedEngines.size(), orphansSeenPoliced, groupsLeftByKilledEngines, fdsBefore, fdsAfter);
    }

    private void launch(final LeakPlan.Kind kind, final String policyText) throws Exception {
        Policy policy = Policy.parse(policyText);
        switch (kind) {
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
            case THREAD_COMMAND_NOT_FOUND -> assertThatThrownBy(() -> threadStart(MISSING, policy))
                    .isInstanceOf(IOException.class);
            case PARK_RUN_TO_END -> parkRunToEnd(policy, TRUE, 0);
            case PARK_COMMAND_NOT_FOUND -> parkRunToEnd(policy, MISSING, 127);
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
            case ENGINE_KILLED_WHILE_THREAD_LAUNCH_RUNS -> engineKilledWhileRunning("thread", policyText);
            case ENGINE_KILLED_WHILE_RELEASED_LAUNCH_RUNS -> engineKilledWhileRunning("released", policyText);
            case ENGINE_KILLED_WHILE_PARKED -> engineKilledWhileParked(policyText);
            default -> fail("unhandled kind " + kind);
        }
    }

    private void parkRunToEnd(final Policy policy, final List<String> command, final int status) throws Exception {
        Handshake h = ParkAndRelease.prepare(policy, config);
        Process p = parkStart(h, command);
        try (PolicedLaunch l = h.release(Duration.ofSeconds(10))) {
            assertThat(l.pid()).isEqualTo(p.pid());
            assertThat(p.waitFor()).isEqualTo(status);
        }
        closeStreams(p);
    }

    /** The command outlives its engine, still under the policy; its group stays until the next start sweeps it. */
    private void engineKilledWhileRunning(final String mode, final String policyText) throws Exception {
        Process engine = engine(mode, policyText, List.of("sleep", "2"));
        long command = Long.parseLong(announcement(engine, "RUNNING ").substring("RUNNING ".length()));
        kill(engine);
        expectLeftBehind(engine.pid(), policyText);
        Optional<TaskStat> orphan = ProcFs.system().stat(command);
        if (orphan.isPresent() && orphan.get().state() != 'Z' && orphan.get().comm().equals("sleep")) {
            assertThat(orphan.get().policy()).as("the orphaned command's class").isEqualTo(3);
            assertThat(orphan.get().nice()).as("the orphaned command's nice").isEqualTo(19);
            orphansSeenPoliced++;
        }
    }

    /** The shim reads EOF from the dead engine's FIFO and exits 125: the command never runs unpoliced. */
    private void engineKilledWhileParked(final String policyText) throws Exception {
        Path ran = work.resolve("ran-" + UUID.randomUUID());
        Process engine = engine("parked", policyText, List.of("touch", ran.toString()));
        long shim = Long.parseLong(announcement(engine, "PARKED ").substring("PARKED ".length()));
        awaitParked(shim);
        kill(engine);
        awaitGone(shim);
        assertThat(ran).as("a parked command whose engine was SIGKILLed must never run").doesNotExist();
        expectLeftBehind(engine.pid(), policyText);
        assertThat(stateEntries()).as("handshakes left by the SIGKILLed engine %d", engine.pid())
                .anyMatch(n -> n.startsWith(ParkAndRelease.HANDSHAKE_PREFIX + engine.pid() + "-"));
    }

    /** The documented behaviour (docs/architecture.md): a killed engine's group stays until the next start. */
    private void expectLeftBehind(final long engine, final String policyText) throws IOException {
        if (!policyText.equals(BASE)) {
            assertThat(CgroupLeftovers.groupsOf(engine)).as("groups left by the SIGKILLed engine %d", engine).isNotEmpty();
            groupsLeftByKilledEngines++;
        }
    }

    /** A fresh engine JVM's first launch sweeps what the killed ones left: empty groups and dead handshakes. */
    private void nextEngineStart() throws Exception {
        Process next = engine("once", BASE + "+quota50", TRUE);
        assertThat(next.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(next.exitValue()).as(Files.readString(work.resolve("engine-" + next.pid() + ".err"))).isZero();
        closeStreams(next);
    }

    private Process engine(final String mode, final String policy, final List<String> command) throws IOException {
        List<String> argv = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                KillableEngine.class.getName(), mode, state.toString(), policy));
        argv.addAll(command);
        ProcessBuilder pb = builder(argv);
        Path err = work.resolve("engine-pending.err");
        pb.redirectError(err.toFile());
        Process p = pb.start();
        Files.move(err, work.resolve("engine-" + p.pid() + ".err"), StandardCopyOption.REPLACE_EXISTING);
        return p;
    }

    private String announcement(final Process engine, final String prefix) throws IOException {
        String line = new BufferedReader(new InputStreamReader(engine.getInputStream(), StandardCharsets.US_ASCII)).readLine();
        assertThat(line).as("engine %d said (stderr: %s)", engine.pid(),
                Files.readString(work.resolve("engine-" + engine.pid() + ".err"))).startsWith(prefix);
        return line;
    }

    private void kill(final Process engine) throws Exception {
        engine.destroyForcibly();
        assertThat(engine.waitFor(30, TimeUnit.SECONDS)).isTrue();
        killedEngines.add(engine.pid());
        closeStreams(engine);
    }

    /** Parked: the shim reported its PID and now reads the go FIFO as its stdin. */
    private static void awaitParked(final long shim) throws Exception {
        Path stdin = Path.of("/proc/" + shim + "/fd/0");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            try {
                if (Files.readSymbolicLink(stdin).toString().endsWith("/go")) {
                    return;
                }
            } catch (IOException notYet) {
                // not redirected yet, or between fork and exec
            }
            Thread.sleep(2);
        }
        fail("shim " + shim + " never parked on its go FIFO");
    }

    private static void awaitGone(final long pid) throws Exception {
        long deadline = System.nanoTime() + SETTLE.toNanos();
        while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false) && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).as("shim %d still alive", pid).isFalse();
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

    /** A SIGKILLed nice-19 process on a busy machine takes a while to run its exit; a leaked one stays. */
    private void awaitNoProcessWithMarker() throws Exception {
        long deadline = System.nanoTime() + SETTLE.toNanos();
        List<String> found = processesWithMarker();
        while (!found.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(20);
            found = processesWithMarker();
        }
        assertThat(found).as("processes carrying this test's marker (orphans included) after %s", SETTLE).isEmpty();
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
