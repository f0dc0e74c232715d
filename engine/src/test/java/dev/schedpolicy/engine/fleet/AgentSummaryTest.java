package dev.schedpolicy.engine.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedpolicy.engine.cgroup.IdleParent;
import dev.schedpolicy.engine.probe.AgentAdvice;
import dev.schedpolicy.engine.probe.Capability;
import dev.schedpolicy.engine.probe.ProbeReport;
import dev.schedpolicy.engine.probe.Recommendation;
import dev.schedpolicy.engine.probe.TaskGroupScope;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The fleet view's rules: how far a lowered build gives way on an agent, what stands out, and the one fix. */
class AgentSummaryTest {
    private static final String PARENT = "/sys/fs/cgroup/cpu/schedpolicy.idle";
    private static final IdleParent.Status ABSENT = new IdleParent.Status(PARENT, false, false, false, "not set up");
    private static final IdleParent.Status USABLE = new IdleParent.Status(PARENT, true, true, true, "usable: writable");
    private static final IdleParent.Status NOT_IDLE = new IdleParent.Status(PARENT, true, false, true, "cpu.idle is not 1");
    private static final IdleParent.Status NOT_DELEGATED = new IdleParent.Status(PARENT, true, true, false,
            "cannot create groups in " + PARENT + ": permission denied");

    private static List<Capability> caps(final boolean cgroups) {
        List<Capability> caps = new ArrayList<>();
        for (String name : List.of("nice", "io-be", "io-idle", "affinity", "batch", "idle")) {
            caps.add(new Capability(name, true, "applied and read back"));
        }
        for (String name : List.of("quota", "weight", "cpu-idle")) {
            caps.add(new Capability(name, cgroups, cgroups ? "scratch group created" : "no write access to the cpu cgroup"));
        }
        return caps;
    }

    /** An agent whose launch groups go to its own cgroup (no cgroup parent set): /sys/fs/cgroup/cpu plus its task group. */
    private static ProbeReport report(final String mode, final String controller, final int euid, final String taskGroup,
            final boolean cgroups) {
        String own = taskGroup.startsWith("autogroup") ? "/" : taskGroup.replaceFirst("^cgroup ", "");
        return report(mode, controller, euid, taskGroup, cgroups, ("/sys/fs/cgroup/cpu" + own).replaceFirst("/$", ""));
    }

    /** @param launchParent where the agent's launch groups go: its cgroup parent, or its own cgroup when it has none */
    private static ProbeReport report(final String mode, final String controller, final int euid, final String taskGroup,
            final boolean cgroups, final String launchParent) {
        return new ProbeReport(1, "6.18.0", 2, euid, caps(cgroups), mode, controller, launchParent, cgroups,
                Map.of(), true, new TaskGroupScope(taskGroup, 3, 120, List.of(), List.of()));
    }

    private static AgentSummary summary(final ProbeReport probe, final IdleParent.Status parent, final String user) {
        return AgentSummary.of(new AgentAdvice(probe, parent, Recommendation.of(probe, parent), null /* the fleet summary does not read the two questions */), user);
    }

    @Test
    void shouldReachTheWholeMachineWhenLaunchGroupsGoUnderAUsableIdleParentAndNeedNoFix() {
        AgentSummary s = summary(report("hybrid", "v1 at /sys/fs/cgroup/cpu", 0, "cgroup /agent", true, PARENT), USABLE, "root");
        assertThat(s.reach()).isEqualTo(Reach.MACHINE);
        assertThat(s.standsOut()).isFalse();
        assertThat(s.fix()).isNull();
        assertThat(s.recommendation().policy()).isEqualTo("cpu-idle");
        assertThat(s.recommendation().cgroupParent()).isEqualTo(PARENT);
        assertThat(s.idleParent().setupCommand()).isEqualTo("sudo schedpolicy setup");
    }

    @Test
    void shouldReachTheWholeMachineFromAGroupBelowTheIdleParent() {
        AgentSummary s = summary(report("v1", "v1 at /sys/fs/cgroup/cpu", 0, "cgroup /agent", true, PARENT + "/builds"), USABLE,
                "root");
        assertThat(s.reach()).isEqualTo(Reach.MACHINE);
    }

    @Test
    void shouldNotReachTheMachineFromTheAgentsOwnCgroupThoughTheIdleParentIsUsable() {
        // no cgroup parent set: launch groups go under the agent's own cgroup, whatever the idle parent's state
        AgentSummary s = summary(report("hybrid", "v1 at /sys/fs/cgroup/cpu", 0, "cgroup /agent", true), USABLE, "root");
        assertThat(s.reach()).isEqualTo(Reach.AGENT_GROUP);
        assertThat(s.standsOut()).isTrue();
        assertThat(s.fix().command()).isNull();
        assertThat(s.fix().title()).isEqualTo("Set the cgroup parent to the idle parent");
        assertThat(s.fix().reason()).contains("/sys/fs/cgroup/cpu/agent", "cgroup parent", PARENT);
    }

    @Test
    void shouldNotReachTheMachineFromACgroupParentBesideTheIdleParent() {
        AgentSummary s = summary(report("v1", "v1 at /sys/fs/cgroup/cpu", 0, "cgroup /agent", true, "/sys/fs/cgroup/cpu/schedpolicy"),
                USABLE, "root");
        assertThat(s.reach()).isEqualTo(Reach.AGENT_GROUP);
        assertThat(s.fix().reason()).contains("/sys/fs/cgroup/cpu/schedpolicy", PARENT);
    }

    @Test
    void shouldReachTheWholeMachineFromTheIdleParentTypedThroughASymlinkToTheHierarchy(@TempDir final Path root) throws Exception {
        // systemd mounts cpu,cpuacct and links cpu to it: an administrator may type either
        Path real = Files.createDirectories(root.resolve("cpu,cpuacct/schedpolicy.idle"));
        Files.createSymbolicLink(root.resolve("cpu"), root.resolve("cpu,cpuacct"));
        IdleParent.Status usable = new IdleParent.Status(real.toString(), true, true, true, "usable");
        AgentSummary s = summary(report("v1", "v1 at " + root.resolve("cpu,cpuacct"), 0, "cgroup /agent", true,
                root.resolve("cpu/schedpolicy.idle").toString()), usable, "root");
        assertThat(s.reach()).isEqualTo(Reach.MACHINE);
    }

    @Test
    void shouldReachTheWholeMachineFromACgroupParentAtTheTopOfTheHierarchy() {
        AgentSummary s = summary(report("v1", "v1 at /sys/fs/cgroup/cpu", 0, "cgroup /agent", true, "/sys/fs/cgroup/cpu"), ABSENT,
                "root");
        assertThat(s.reach()).isEqualTo(Reach.MACHINE);
    }

    @Test
    void shouldSayTheCgroupParentMustPointThereAfterCreatingTheIdleParent() {
        AgentSummary s = summary(report("v1", "v1 at /sys/fs/cgroup/cpu", 0, "cgroup /agent", true), ABSENT, "root");
        assertThat(s.fix().command()).isEqualTo("sudo schedpolicy setup");
        assertThat(s.fix().title()).isEqualTo("Create the idle parent");
        assertThat(s.fix().reason()).contains("then set the cgroup parent to " + PARENT);
    }

    @Test
    void shouldReachTheWholeMachineFromTheRootCpuCgroupWithoutAnIdleParent() {
        AgentSummary s = summary(report("v1", "v1 at /sys/fs/cgroup/cpu", 0, "autogroup /autogroup-9 in cgroup /", true), ABSENT,
                "root");
        assertThat(s.reach()).isEqualTo(Reach.MACHINE);
        assertThat(s.fix()).isNull();
    }

    @Test
    void shouldSingleOutAnAgentInItsOwnCgroupWithoutIdleParentAndGiveTheSetupCommandForItsUser() {
        AgentSummary s = summary(report("v1", "v1 at /sys/fs/cgroup/cpu", 1001, "cgroup /system.slice/agent.service", true),
                ABSENT, "jenkins");
        assertThat(s.reach()).isEqualTo(Reach.AGENT_GROUP);
        assertThat(s.standsOut()).isTrue();
        assertThat(s.fix().command()).isEqualTo("sudo schedpolicy setup --user jenkins");
        assertThat(s.fix().reason()).contains(PARENT + " does not exist");
    }

    @Test
    void shouldHandTheIdleParentToAnAgentUserWhoCannotWriteCgroups() {
        AgentSummary s = summary(report("hybrid", "v1 at /sys/fs/cgroup/cpu", 65534, "cgroup /", false), NOT_DELEGATED, "nobody");
        assertThat(s.reach()).isEqualTo(Reach.TASK_GROUP);
        assertThat(s.cpuControllerWritable()).isFalse();
        assertThat(s.recommendation().policy()).isEqualTo("idle");
        assertThat(s.fix().command()).isEqualTo("sudo schedpolicy setup --user nobody");
        assertThat(s.fix().reason()).contains("not usable by the agent's user (uid 65534)", "permission denied");
    }

    @Test
    void shouldRepairAnIdleParentWhoseCpuIdleIsNotSet() {
        AgentSummary s = summary(report("v1", "v1 at /sys/fs/cgroup/cpu", 0, "cgroup /agent", true), NOT_IDLE, "root");
        assertThat(s.fix().command()).isEqualTo("sudo schedpolicy setup");
        assertThat(s.fix().reason()).contains("cpu.idle is not 1");
    }

    @Test
    void shouldGiveNoCommandOnCgroupV2WhenOnlyTheCommonAncestorStandsInTheWay() {
        IdleParent.Status v2 = new IdleParent.Status("/sys/fs/cgroup/schedpolicy.idle", true, true, false,
                "groups can be made there, but moving a process in needs write access to /sys/fs/cgroup/cgroup.procs");
        AgentSummary s = summary(report("v2", "v2 at /sys/fs/cgroup", 1001, "cgroup /user.slice/agent", true), v2, "jenkins");
        assertThat(s.standsOut()).isTrue();
        assertThat(s.fix().command()).isNull();
        assertThat(s.fix().reason()).contains("write access to /sys/fs/cgroup/cgroup.procs");
    }

    @Test
    void shouldSayNoCommandHelpsWithoutACpuController() {
        AgentSummary s = summary(report("none", "none", 0, "unknown", false), ABSENT, "root");
        assertThat(s.reach()).isEqualTo(Reach.TASK_GROUP);
        assertThat(s.fix().command()).isNull();
        assertThat(s.fix().reason()).contains("no cpu cgroup controller is mounted", "mount the cpu controller");
    }

    @Test
    void shouldSendAReadOnlyControllerToTheHostsContainerRuntime() {
        AgentSummary s = summary(report("v2", "v2 at /sys/fs/cgroup (read-only)", 0, "cgroup /", false), ABSENT, "root");
        assertThat(s.fix().command()).isNull();
        assertThat(s.fix().reason()).contains("read-only", "--cgroup-parent=/schedpolicy.idle");
    }

    @Test
    void shouldNameTheIdleParentsPathInTheSetupCommandWhenItIsNotTheDefault() {
        IdleParent.Status elsewhere = new IdleParent.Status("/sys/fs/cgroup/cpu/builds", false, false, false, "not set up");
        AgentSummary s = summary(report("v1", "v1 at /sys/fs/cgroup/cpu", 1001, "cgroup /agent", true), elsewhere, "ci");
        assertThat(s.fix().command()).isEqualTo("sudo schedpolicy setup --user ci --path /sys/fs/cgroup/cpu/builds");
    }

    @Test
    void shouldKeepEveryFieldThroughJson() {
        AgentSummary s = summary(report("hybrid", "v1 at /sys/fs/cgroup/cpu", 65534, "cgroup /", false), NOT_DELEGATED, "nobody");
        AgentSummary back = AgentSummary.fromJson(s.toJson());
        assertThat(back).isEqualTo(s);
        assertThat(s.toJson()).contains("\"reach\":\"TASK_GROUP\"", "\"layout\":\"hybrid\"");
    }

    @Test
    void shouldRejectUnreadableJsonWithAMessage() {
        assertThatThrownBy(() -> AgentSummary.fromJson("{\"kernel\": [")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("the agent's summary is not readable");
    }

    @Test
    void shouldRefuseASummaryWhoseFixContradictsItsReach() {
        AgentSummary s = summary(report("v1", "v1 at /sys/fs/cgroup/cpu", 0, "cgroup /agent", true), USABLE, "root");
        assertThatThrownBy(() -> new AgentSummary(s.kernel(), s.cpus(), s.user(), s.euid(), s.layout(), s.cpuController(),
                s.cpuControllerWritable(), s.autogroup(), s.taskGroup(), s.otherProcesses(), s.capabilities(), s.idleParent(),
                s.recommendation(), Reach.TASK_GROUP, null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("needs a fix exactly when");
    }
}
