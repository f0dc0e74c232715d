package dev.schedpolicy.engine.agent;

import dev.schedpolicy.engine.launch.LaunchConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

@EnabledOnOs(OS.LINUX)
class SchedPolicyAgentITest {
    @TempDir
    Path state;

    @BeforeEach
    void setUp() {
        SchedPolicyAgent.useRegistry(new HandshakeRegistry(LaunchConfig.defaults().withStateDir(state), Path.of("/proc"),
                Duration.ofHours(1)));
    }

    @AfterEach
    void tearDown() {
        SchedPolicyAgent.useRegistry(null);
        SchedPolicyAgent.useProbe(() -> dev.schedpolicy.engine.probe.Probe.system(java.util.Optional.empty()).run());
    }

    @Test
    void shouldFailWithTheProbesWordsOrWarnUnderWarn() {
        SchedPolicyAgent.useProbe(() -> {
            dev.schedpolicy.engine.probe.ProbeReport real = dev.schedpolicy.engine.probe.Probe.system(java.util.Optional.empty()).run();
            java.util.List<dev.schedpolicy.engine.probe.Capability> caps = real.capabilities().stream()
                    .map(c -> c.name().equals("idle") ? new dev.schedpolicy.engine.probe.Capability(c.name(), false, "EPERM (test)") : c)
                    .toList();
            return new dev.schedpolicy.engine.probe.ProbeReport(real.schemaVersion(), real.kernel(), real.cpus(), real.euid(), caps,
                    real.cgroupMode(), real.cpuController(), real.cgroupParent(), real.cgroupParentUsable(), real.ioSchedulers(),
                    real.autogroup(), real.scope());
        });
        BlockStart failed = SchedPolicyAgent.startBlock(LaunchRequest.of("b5", "idle"));
        assertThat(failed.failure()).hasValueSatisfying(f -> assertThat(f)
                .contains("cannot be applied on this agent: scheduling class idle cannot be applied here: EPERM (test)")
                .contains("onUnsupported: 'warn'"));
        BlockStart warned = SchedPolicyAgent.startBlock(LaunchRequest.of("b6", "idle+warn"));
        assertThat(warned.failure()).isEmpty();
        assertThat(warned.warnings().get(0)).contains("cannot be fully applied").contains("EPERM (test)");
    }

    @Test
    void shouldKeepWhatIdleCannotReachOutOfTheBlocksConsoleWarnings() {
        SchedPolicyAgent.useProbe(() -> {
            dev.schedpolicy.engine.probe.ProbeReport real = dev.schedpolicy.engine.probe.Probe.system(java.util.Optional.empty()).run();
            return new dev.schedpolicy.engine.probe.ProbeReport(real.schemaVersion(), real.kernel(), real.cpus(), real.euid(),
                    real.capabilities(), real.cgroupMode(), real.cpuController(), real.cgroupParent(), real.cgroupParentUsable(),
                    real.ioSchedulers(), true, new dev.schedpolicy.engine.probe.TaskGroupScope("autogroup /autogroup-80 in cgroup /",
                            12, 18, java.util.List.of(), java.util.List.of("autogroup is on and this process is in the root cpu cgroup")));
        });
        BlockStart start = SchedPolicyAgent.startBlock(LaunchRequest.of("b10", "idle"));
        assertThat(start.failure()).isEmpty();
        assertThat(start.warnings()).as("said once per build, not in every block's warnings").isEmpty();
        assertThat(start.reach()).hasSize(2).anySatisfy(w -> assertThat(w).contains("has no effect against the 18 processes"))
                .contains("autogroup is on and this process is in the root cpu cgroup");
        assertThat(start.reachBrief()).hasValueSatisfying(b -> assertThat(b).contains("not to the 18 in other task groups"));
    }

    @Test
    void shouldMergeAgentDefaultEnclosingAndRequestedAndProbeForReal() {
        BlockStart start = SchedPolicyAgent.startBlock(LaunchRequest.of("b1", "nice19").inside("io-be7")
                .onNode("batch+nice10", AgentLimits.DEFAULT, null));
        assertThat(start.failure()).isEmpty();
        assertThat(start.effective()).isEqualTo("batch+nice19+io-be7");
        assertThat(start.requested()).isEqualTo("nice19");
        assertThat(SchedPolicyAgent.registry().pendingCount()).isZero();
        assertThat(SchedPolicyAgent.registry().liveCount()).isZero();
    }

    @Test
    void shouldRunABlockThatAsksForNormalUnderAnIdleNodeDefaultAtIdleAndSaySo() {
        BlockStart start = SchedPolicyAgent.startBlock(LaunchRequest.of("b7", "normal")
                .onNode("idle", AgentLimits.DEFAULT, null));
        assertThat(start.failure()).isEmpty();
        assertThat(start.effective()).isEqualTo("idle");
        assertThat(start.warnings()).anySatisfy(w -> assertThat(w).contains("default class idle is a floor"));
    }

    @Test
    void shouldFailACgroupBlockUnderAMissingParentWithTheProbesWords() {
        BlockStart start = SchedPolicyAgent.startBlock(LaunchRequest.of("b8", "quota50")
                .onNode(null, AgentLimits.DEFAULT, state.resolve("no-such-parent").toString()));
        assertThat(start.failure()).hasValueSatisfying(f -> assertThat(f).contains("no-such-parent"));
        BlockStart relative = SchedPolicyAgent.startBlock(LaunchRequest.of("b9", "idle")
                .onNode(null, AgentLimits.DEFAULT, "relative/dir"));
        assertThat(relative.failure()).hasValueSatisfying(f -> assertThat(f).contains("must be an absolute directory"));
    }

    @Test
    void shouldFailABlockAboveTheLimitsWithWordsSayingWhatIsAllowed() {
        BlockStart start = SchedPolicyAgent.startBlock(LaunchRequest.of("b2", "nice-5"));
        assertThat(start.failure()).hasValueSatisfying(f -> assertThat(f)
                .contains("policy 'nice-5' is not allowed here").contains("0..19"));
    }

    @Test
    void shouldNotProbeTheDefaultPolicy() {
        BlockStart start = SchedPolicyAgent.startBlock(LaunchRequest.of("b3", "default").inside("")
                .onNode("", AgentLimits.DEFAULT, null));
        assertThat(start.failure()).isEmpty();
        assertThat(start.warnings()).isEmpty();
        assertThat(start.effective()).isEqualTo("default");
    }

    @Test
    void shouldReleaseThroughTheFacadeAsTheRemotingCallsDo() throws Exception {
        PreparedLaunch prepared = SchedPolicyAgent.prepare(LaunchRequest.of("b4", "idle")
                .pendingFor(Duration.ofSeconds(30)));
        Process p = new ProcessBuilder(prepared.prefix(java.util.List.of("true"))).start();
        LaunchRecord record = SchedPolicyAgent.release(prepared.id(), Duration.ofSeconds(10));
        assertThat(p.waitFor()).isZero();
        assertThat(record.schedClass()).isEqualTo("idle");
        assertThat(record.verified()).isTrue();
        assertThat(SchedPolicyAgent.finishBlock("b4").groups()).isZero();
    }

    /**
     * Issue 23 item 1: a block started on one node also decorates the launches of a {@code node {}} nested in it, so
     * a launcher can carry a policy that was floored on another node. The launch is floored again where it runs.
     */
    @Test
    void shouldFloorEveryLaunchByTheDefaultOfTheNodeItRunsOnWhateverItsLauncherCarries() throws Exception {
        PreparedLaunch prepared = SchedPolicyAgent.prepare(LaunchRequest.of("b10", "normal")
                .onNode("nice12", AgentLimits.DEFAULT, null).pendingFor(Duration.ofSeconds(30))
                .forCommand(java.util.List.of("true"), java.util.Map.of()));
        Process p = new ProcessBuilder(prepared.prefix(java.util.List.of("true"))).start();
        LaunchRecord record = SchedPolicyAgent.release(prepared.id(), Duration.ofSeconds(10));
        assertThat(p.waitFor()).isZero();
        assertThat(record.nice()).as("the node's default nice 12 is a floor").isEqualTo(12);
        assertThat(record.policy()).isEqualTo("normal+nice12");
        assertThat(prepared.policy()).as("what the launch runs under, for its name").isEqualTo(record.policy());
        assertThat(record.warnings()).isEmpty();
        PreparedLaunch raised = SchedPolicyAgent.prepare(LaunchRequest.of("b10", "nice5")
                .onNode("nice12", AgentLimits.DEFAULT, null).pendingFor(Duration.ofSeconds(30))
                .forCommand(java.util.List.of("true"), java.util.Map.of()));
        Process q = new ProcessBuilder(raised.prefix(java.util.List.of("true"))).start();
        LaunchRecord kept = SchedPolicyAgent.release(raised.id(), Duration.ofSeconds(10));
        assertThat(q.waitFor()).isZero();
        assertThat(kept.nice()).isEqualTo(12);
        assertThat(kept.warnings()).anySatisfy(w -> assertThat(w).contains("default nice 12 is a floor"));
        PreparedLaunch allowed = SchedPolicyAgent.prepare(LaunchRequest.of("b10", "nice5")
                .onNode("nice12", new AgentLimits(false, 0, true, 0, true), null).pendingFor(Duration.ofSeconds(30))
                .forCommand(java.util.List.of("true"), java.util.Map.of()));
        Process r = new ProcessBuilder(allowed.prefix(java.util.List.of("true"))).start();
        LaunchRecord above = SchedPolicyAgent.release(allowed.id(), Duration.ofSeconds(10));
        assertThat(above.nice()).as("allowAboveDefault").isEqualTo(5);
        assertThat(allowed.policy()).isEqualTo(above.policy());
        assertThat(r.waitFor()).isZero();
        SchedPolicyAgent.finishBlock("b10");
    }
}
