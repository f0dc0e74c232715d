package dev.schedpolicy.engine.probe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedpolicy.engine.cgroup.IdleParent;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** One policy per agent, chosen from the probe's facts, with the reason a user can check. */
class RecommendationTest {
    private static final Capability CPU_IDLE = new Capability("cpu-idle", true, "ok");
    private static final Capability NO_CPU_IDLE = new Capability("cpu-idle", false, "no writable parent for cpu cgroups");
    private static final Capability IDLE = new Capability("idle", true, "ok");
    private static final IdleParent.Status NO_PARENT = new IdleParent.Status("/sys/fs/cgroup/cpu/schedpolicy.idle", false,
            false, false, "not set up");
    private static final IdleParent.Status PARENT = new IdleParent.Status("/sys/fs/cgroup/cpu/schedpolicy.idle", true,
            true, true, "usable");

    private static ProbeReport report(final String taskGroup, final int same, final int other, final Capability... caps) {
        return new ProbeReport(1, "6.18", 2, 1000, List.of(caps), "v1", "v1 at /sys/fs/cgroup/cpu", "/sys/fs/cgroup/cpu",
                true, Map.of(), true, new TaskGroupScope(taskGroup, same, other, List.of(), List.of()));
    }

    @Test
    void shouldUseTheIdleParentWhenItIsUsable() {
        Recommendation r = Recommendation.of(report("cgroup /system.slice/jenkins.service", 5, 90, CPU_IDLE, IDLE), PARENT);
        assertThat(r.policy()).isEqualTo("cpu-idle");
        assertThat(r.cgroupParent()).isEqualTo("/sys/fs/cgroup/cpu/schedpolicy.idle");
        assertThat(r.reason()).contains("yields to every other task group", "nice and idle would reach only");
        assertThat(r.next()).isNull();
    }

    @Test
    void shouldNotSendBuildsToAParentWhoseCpuIdleIsNotOne() {
        IdleParent.Status notIdle = new IdleParent.Status("/sys/fs/cgroup/cpu/schedpolicy.idle", true, false, true,
                "cpu.idle is not 1: run 'schedpolicy setup' again");
        Recommendation r = Recommendation.of(report("cgroup /system.slice/jenkins.service", 5, 90, CPU_IDLE, IDLE), notIdle);
        assertThat(r.cgroupParent()).isNull();
        assertThat(r.next()).contains("schedpolicy setup --user");
    }

    @Test
    void shouldUseCpuIdleWhenVictimsAreInOtherSessionsAndTheAgentIsInTheRootCgroup() {
        Recommendation r = Recommendation.of(report("autogroup /autogroup-7 in cgroup /", 2, 80, CPU_IDLE, IDLE), NO_PARENT);
        assertThat(r.policy()).isEqualTo("cpu-idle");
        assertThat(r.cgroupParent()).isNull();
        assertThat(r.reason()).contains("80 processes run in other task groups", "root cpu cgroup");
        // that holds only while the agent stays there: the idle parent holds wherever it runs
        assertThat(r.next()).contains("schedpolicy setup --user", "when the agent runs as a service or in a container");
    }

    @Test
    void shouldSendAnAgentInItsOwnCgroupToTheAdministratorForTheIdleParent() {
        Recommendation r = Recommendation.of(report("cgroup /system.slice/jenkins.service", 5, 90, CPU_IDLE, IDLE), NO_PARENT);
        assertThat(r.policy()).isEqualTo("cpu-idle");
        assertThat(r.next()).contains("schedpolicy setup --user", "CPUWeight=idle");
    }

    @Test
    void shouldFallBackToPerTaskIdleWithoutCgroupControlsAndSayWhatIsLeftUnprotected() {
        Recommendation r = Recommendation.of(report("cgroup /docker/abc", 12, 0, NO_CPU_IDLE, IDLE), NO_PARENT);
        assertThat(r.policy()).isEqualTo("idle");
        assertThat(r.reason()).isEqualTo("12 other processes share cgroup /docker/abc, where SCHED_IDLE makes a build yield"
                + " to them");
        Recommendation elsewhere = Recommendation.of(report("cgroup /u", 1, 30, NO_CPU_IDLE), NO_PARENT);
        assertThat(elsewhere.policy()).isEqualTo("batch+nice19");
        assertThat(elsewhere.reason()).contains("30 processes in other task groups are not protected",
                "no writable parent for cpu cgroups");
        assertThat(elsewhere.line()).startsWith("batch+nice19: ");
    }
}
