package dev.schedpolicy.engine.agent;

import dev.schedpolicy.engine.container.ContainerRefusal;
import dev.schedpolicy.engine.launch.LaunchConfig;
import dev.schedpolicy.engine.launch.PolicyApplyException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Real launches through the registry, as the plugin makes them: prepare, someone else starts, release. */
@EnabledOnOs(OS.LINUX)
class HandshakeRegistryITest {
    @TempDir
    Path state;

    private HandshakeRegistry registry;

    @BeforeEach
    void setUp() {
        registry = new HandshakeRegistry(LaunchConfig.defaults().withStateDir(state), Path.of("/proc"), Duration.ofHours(1));
    }

    @AfterEach
    void tearDown() {
        registry.close();
    }

    /** Fields 41 (policy) and 19 (nice) of /proc/PID/stat, counted after the last ')'. */
    private static int[] policyAndNice(final String stat) {
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
        return new int[] {Integer.parseInt(f[41 - 3]), Integer.parseInt(f[19 - 3])};
    }

    /** Handshake directories left in the state directory, after giving an abort up to 2 s to finish removing them. */
    private List<Path> handshakeDirs() throws Exception {
        long deadline = System.nanoTime() + 2_000_000_000L;
        while (true) {
            List<Path> dirs;
            try (Stream<Path> s = Files.list(state)) {
                dirs = s.filter(p -> p.getFileName().toString().startsWith("hs-")).toList();
            }
            if (dirs.isEmpty() || System.nanoTime() > deadline) {
                return dirs;
            }
            Thread.sleep(20);
        }
    }

    /** Jenkins' launchChannel speaks remoting over the process's stdin/stdout: the shim must add nothing to them. */
    @Test
    void shouldLeaveTheCommandsStdinAndStdoutToItselfSoAChannelLaunchCanBePoliced() throws Exception {
        PreparedLaunch prepared = registry.prepare(LaunchRequest.of("block-ch", "idle").pendingFor(Duration.ofSeconds(30)));
        Process p = new ProcessBuilder(prepared.prefix(List.of("cat"))).start();
        registry.release(prepared.id(), Duration.ofSeconds(10));
        p.getOutputStream().write("frame-1\n".getBytes(StandardCharsets.US_ASCII));
        p.getOutputStream().close();
        assertThat(new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII)).isEqualTo("frame-1\n");
        assertThat(new String(p.getErrorStream().readAllBytes(), StandardCharsets.US_ASCII)).isEmpty();
        assertThat(p.waitFor()).isZero();
        registry.finishBlock("block-ch");
    }

    @Test
    void shouldRunACommandStartedBySomeoneElseUnderThePolicyAcrossTwoCalls() throws Exception {
        PreparedLaunch prepared = registry.prepare(LaunchRequest.of("block-1", "batch+nice19")
                .pendingFor(Duration.ofSeconds(30)));
        assertThat(registry.pendingCount()).isEqualTo(1);
        assertThat(String.join(" ", prepared.commandPrefix())).doesNotContain("$");

        Process p = new ProcessBuilder(prepared.prefix(List.of("cat", "/proc/self/stat"))).start();
        LaunchRecord record = registry.release(prepared.id(), Duration.ofSeconds(10));

        String stat = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
        assertThat(p.waitFor()).isZero();
        assertThat(policyAndNice(stat)).containsExactly(3, 19); // what the kernel applied, read by the command itself
        assertThat(record.verified()).isTrue();
        assertThat(record.schedClass()).isEqualTo("batch");
        assertThat(record.nice()).isEqualTo(19);
        assertThat(record.pid()).isEqualTo(Long.parseLong(stat.substring(0, stat.indexOf(' '))));
        assertThat(record.policy()).isEqualTo("batch+nice19");
        assertThat(registry.pendingCount()).isZero();
        assertThat(registry.finishBlock("block-1").groups()).isZero();
        assertThat(handshakeDirs()).isEmpty();
    }

    /** The command-line routing needs no daemon: what is not a container start is parked as always. */
    @Test
    void shouldParkDockerSubcommandsThatStartNoContainerAndRefuseALineItCannotRead() throws Exception {
        Map<String, String> env = System.getenv();
        PreparedLaunch ps = registry.prepare(LaunchRequest.of("block-d", "batch").pendingFor(Duration.ofSeconds(30))
                .forCommand(List.of("docker", "stop", "--time=1", "c0ffee"), env));
        assertThat(ps.commandPrefix()).as("parked behind the shim").isNotEmpty();
        registry.abort(ps.id(), "not started in this test");

        List<String> odd = List.of("docker", "--frobnicate", "x", "run", "img");
        for (String policy : List.of("batch", "batch+warn")) {
            assertThatThrownBy(() -> registry.prepare(LaunchRequest.of("block-d", policy).pendingFor(Duration.ofSeconds(30))
                    .forCommand(odd, env)))
                    .as("under warn too: run as it is, the container would escape the policy")
                    .isInstanceOf(ContainerRefusal.class).hasMessageContaining("unknown global option '--frobnicate'")
                    .hasMessageContaining("only the client would be policed");
        }
        assertThat(registry.pendingCount()).isZero();
        registry.finishBlock("block-d");
        assertThat(handshakeDirs()).isEmpty();
    }

    @Test
    void shouldRefuseAnExecIntoAContainerItDidNotStartWithoutAskingAnyDaemon() {
        assertThatThrownBy(() -> registry.prepare(LaunchRequest.of("block-e", "cpu-idle").pendingFor(Duration.ofSeconds(30))
                .forCommand(List.of("docker", "exec", "--env", "A=s3cret", "c0ffee", "env", "A=s3cret", "sh", "-c", "make"),
                        System.getenv())))
                .isInstanceOf(ContainerRefusal.class)
                .hasMessageContaining("runs in container c0ffee, which no policed launch on this"
                        + " agent started").hasMessageNotContaining("s3cret");
        assertThat(registry.pendingCount()).isZero();
    }

    @Test
    void shouldAbortAndCleanUpAPreparedLaunchThatIsNeverReleased() throws Exception {
        PreparedLaunch prepared = registry.prepare(LaunchRequest.of("block-2", "idle").pendingFor(Duration.ofMillis(300)));
        Process p = new ProcessBuilder(prepared.prefix(List.of("sh", "-c", "echo ran"))).start();

        assertThat(p.waitFor()).isEqualTo(125);
        assertThat(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isEmpty();
        assertThat(new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8)).contains("not released within 300 ms");
        assertThat(registry.pendingCount()).isZero();
        assertThat(handshakeDirs()).isEmpty();
        assertThatThrownBy(() -> registry.release(prepared.id(), Duration.ofSeconds(1)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("no parked launch");
    }

    @Test
    void shouldAbortWhenTheLaunchFailedSoTheCommandNeverRuns() throws Exception {
        PreparedLaunch prepared = registry.prepare(LaunchRequest.of("block-3", "idle").pendingFor(Duration.ofSeconds(30)));
        Process p = new ProcessBuilder(prepared.prefix(List.of("sh", "-c", "echo ran"))).start();
        registry.abort(prepared.id(), "Jenkins could not start the step");
        assertThat(p.waitFor()).isEqualTo(125);
        assertThat(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isEmpty();
        assertThat(registry.pendingCount()).isZero();
        assertThat(handshakeDirs()).isEmpty();
    }

    /**
     * A Jenkins build aborted while its launch waits for a slow shim (a busy agent, a slow /bin/sh): the abort must
     * reach the waiting release at once, not when the shim arrives or the handshake times out, and the shim that comes
     * afterwards must find the launch gone and exit 125 without running the command.
     */
    @Test
    void shouldEndAWaitingReleaseAtOnceWhenAbortedSoALateShimNeverRunsTheCommand() throws Exception {
        PreparedLaunch prepared = registry.prepare(LaunchRequest.of("block-ab", "idle").pendingFor(Duration.ofSeconds(60)));
        java.util.concurrent.CompletableFuture<LaunchRecord> release = java.util.concurrent.CompletableFuture.supplyAsync(
                () -> registry.release(prepared.id(), Duration.ofSeconds(20)));
        Thread.sleep(300); // the release is waiting for the shim's PID
        assertThat(release).isNotDone();
        long t0 = System.nanoTime();
        registry.abort(prepared.id(), "the build was aborted");
        assertThatThrownBy(() -> release.get(2, java.util.concurrent.TimeUnit.SECONDS))
                .as("the waiting release ends within 2 s of the abort")
                .hasCauseInstanceOf(AbortedLaunchException.class).hasMessageContaining("the build was aborted")
                .hasMessageContaining("the command was not started");
        assertThat((System.nanoTime() - t0) / 1_000_000).isLessThan(2000);
        assertThat(registry.pendingCount()).isZero();
        assertThat(handshakeDirs()).isEmpty();

        Path ran = state.resolveSibling(state.getFileName() + "-ran");
        Process late = new ProcessBuilder(prepared.prefix(List.of("sh", "-c", ": > " + ran))).start();
        assertThat(late.waitFor()).as("the late shim exits 125").isEqualTo(125);
        assertThat(ran).as("the command never started").doesNotExist();
        assertThat(handshakeDirs()).isEmpty();
        assertThat(registry.finishBlock("block-ab").groups()).isZero();
    }

    @Test
    void shouldAbortPendingLaunchesWhenTheirBlockEnds() throws Exception {
        registry.prepare(LaunchRequest.of("block-4", "idle").pendingFor(Duration.ofSeconds(30)));
        registry.prepare(LaunchRequest.of("other", "idle").pendingFor(Duration.ofSeconds(30)));
        registry.finishBlock("block-4");
        assertThat(registry.pendingCount()).isEqualTo(1);
    }

    @Test
    void shouldRefuseAPolicyAboveTheAdministratorsLimitsBeforeParking() {
        assertThatThrownBy(() -> registry.prepare(LaunchRequest.of("b", "nice-5").pendingFor(Duration.ofSeconds(5))))
                .hasMessageContaining("not allowed here");
        assertThatThrownBy(() -> registry.prepare(LaunchRequest.of("b", "quota50")
                .onNode(null, new AgentLimits(false, 0, false, 0), null).pendingFor(Duration.ofSeconds(5))))
                .hasMessageContaining("disabled by the administrator");
        assertThat(registry.pendingCount()).isZero();
    }

    @Test
    void shouldReportTheReasonWhenTheCommandNeverReachesTheShim() {
        PreparedLaunch prepared = registry.prepare(LaunchRequest.of("b", "batch").pendingFor(Duration.ofSeconds(30)));
        assertThatThrownBy(() -> registry.release(prepared.id(), Duration.ofMillis(200)))
                .isInstanceOf(PolicyApplyException.class).hasMessageContaining("did not reach the policy shim");
    }

    @Test
    void shouldKeepACgroupUntilTheBlockEndsAndReportItsUsage() throws Exception {
        PreparedLaunch prepared = registry.prepare(LaunchRequest.of("block-5", "quota50+warn")
                .pendingFor(Duration.ofSeconds(30)));
        Process p = new ProcessBuilder(prepared.prefix(List.of("sh", "-c", "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done")))
                .start();
        LaunchRecord record = registry.release(prepared.id(), Duration.ofSeconds(10));
        assertThat(p.waitFor()).isZero();
        if (!record.warnings().isEmpty()) {
            // this agent cannot make cgroups (e.g. a read-only cgroupfs): under warn the launch still ran
            assertThat(registry.finishBlock("block-5").groups()).isZero();
            return;
        }
        assertThat(registry.liveCount()).isEqualTo(1);
        UsageRecord usage = registry.finishBlock("block-5");
        assertThat(usage.groups()).isEqualTo(1);
        assertThat(usage.usageUsec()).isPositive();
        assertThat(registry.liveCount()).isZero();
    }

    /**
     * A process that outlives its SIGKILL for a while (frozen by the v1 freezer here; on a loaded machine, one in
     * uninterruptible sleep) keeps its launch group busy past the block's end: the end returns, the group stays, and
     * the reaper removes it once the process is gone. Before, the end threw and nothing ever removed the group, whose
     * maker, this JVM, lives on (so the sweep of dead makers' groups never takes it).
     */
    @Test
    void shouldRemoveALaunchGroupThatStayedBusyPastTheBlocksEndOnceItEmpties() throws Exception {
        FrozenProcess.assumeFreezer();
        PreparedLaunch prepared = registry.prepare(LaunchRequest.of("block-busy", "weight50+warn")
                .pendingFor(Duration.ofSeconds(30)));
        Process p = new ProcessBuilder(prepared.prefix(List.of("sleep", "60"))).start();
        LaunchRecord record = registry.release(prepared.id(), Duration.ofSeconds(10));
        assumeTrue(record.warnings().isEmpty(), "no cgroup for the launch here: " + record.warnings());
        Path group = Path.of("/sys/fs/cgroup/cpu" + record.cpuCgroup());
        assumeTrue(Files.isDirectory(group), "needs the v1 cpu hierarchy at /sys/fs/cgroup/cpu: " + group);
        FrozenProcess frozen = FrozenProcess.freeze(p.pid());
        try (frozen) {
            UsageRecord usage = registry.finishBlock("block-busy");

            assertThat(usage.groups()).as("the block's end still reports its group").isEqualTo(1);
            assertThat(group).as("held by the frozen process").isDirectory();
            frozen.thaw();
            assertThat(p.waitFor(10, TimeUnit.SECONDS)).as("the SIGKILL lands once thawed").isTrue();
            assertThat(reapedWithin(registry, group, Duration.ofSeconds(5))).as("removed by the reaper once empty").isTrue();
        } finally {
            p.destroyForcibly().waitFor();
            frozen.remove();
        }
    }

    /** Runs the reaper until {@code group} is gone, up to {@code bound}; whether it went. */
    static boolean reapedWithin(final HandshakeRegistry r, final Path group, final Duration bound) throws InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        while (Files.exists(group) && System.nanoTime() < deadline) {
            r.reapEmptyGroups();
            Thread.sleep(50);
        }
        return !Files.exists(group);
    }

    @Test
    void shouldReapTheGroupOfAFinishedLaunchOutsideAnyBlockAndKeepItsUsage() throws Exception {
        PreparedLaunch prepared = registry.prepare(LaunchRequest.of("node-default", "weight50+warn")
                .pendingFor(Duration.ofSeconds(30)));
        Process p = new ProcessBuilder(prepared.prefix(List.of("true"))).start();
        LaunchRecord record = registry.release(prepared.id(), Duration.ofSeconds(10));
        assertThat(p.waitFor()).isZero();
        if (!record.warnings().isEmpty()) {
            return; // no cgroup here; covered by the test above
        }
        registry.reapEmptyGroups();
        assertThat(registry.liveCount()).isZero();
        assertThat(registry.finishBlock("node-default").groups()).isEqualTo(1);
    }

    /**
     * The reaper's look for processes in a launch group walks /proc, which takes a while: a guard may put a lowered
     * process back into the group after the look found it empty. A /proc that shows nothing stands for that stale look:
     * the process runs on and keeps its group (the reaper once SIGKILLed it, and on 5.10 left the group behind).
     */
    @Test
    void shouldNeitherKillNorUnhouseAProcessTheReapersLookMissed(@TempDir final Path emptyProc) throws Exception {
        registry.close();
        registry = new HandshakeRegistry(LaunchConfig.defaults().withStateDir(state), emptyProc, Duration.ofHours(1));
        PreparedLaunch prepared = registry.prepare(LaunchRequest.of("node-default", "weight50+warn")
                .pendingFor(Duration.ofSeconds(30)));
        Process p = new ProcessBuilder(prepared.prefix(List.of("sleep", "30"))).start();
        try {
            LaunchRecord record = registry.release(prepared.id(), Duration.ofSeconds(10));
            if (!record.warnings().isEmpty()) {
                return; // no cgroup here
            }
            String group = Files.readString(Path.of("/proc/" + p.pid() + "/cgroup"));
            registry.reapEmptyGroups();
            assertThat(p.isAlive()).as("the process the look missed runs on").isTrue();
            assertThat(Files.readString(Path.of("/proc/" + p.pid() + "/cgroup"))).as("in its group").isEqualTo(group);
            assertThat(registry.liveCount()).as("its group kept for the next round").isEqualTo(1);
        } finally {
            p.destroyForcibly().waitFor();
        }
        registry.reapEmptyGroups();
        assertThat(registry.liveCount()).as("removed once it is really empty").isZero();
    }
}
