package dev.schedpolicy.engine.probe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedpolicy.engine.cgroup.IdleParent;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The probe answers bench's two questions in bench's words: same agent first, then the neighbours outside it. */
class TwoQuestionsTest {
    private static final Capability CPU_IDLE = new Capability("cpu-idle", true, "ok");
    private static final Capability IDLE = new Capability("idle", true, "ok");
    private static final Capability NO_IDLE = new Capability("idle", false, "SCHED_IDLE refused (EPERM)");
    private static final Capability NICE = new Capability("nice", true, "ok");
    private static final IdleParent.Status NO_PARENT = new IdleParent.Status("/sys/fs/cgroup/cpu/schedpolicy.idle", false,
            false, false, "not set up");
    private static final IdleParent.Status NOT_IDLE = new IdleParent.Status("/sys/fs/cgroup/cpu/schedpolicy.idle", true,
            false, true, "cpu.idle is not 1: run 'schedpolicy setup' again");
    private static final IdleParent.Status PARENT = new IdleParent.Status("/sys/fs/cgroup/cpu/schedpolicy.idle", true,
            true, true, "usable");

    private static ProbeReport report(final String taskGroup, final Capability... caps) {
        return new ProbeReport(1, "6.18", 2, 1000, List.of(caps), "v1", "v1 at /sys/fs/cgroup/cpu", "/sys/fs/cgroup/cpu",
                true, Map.of(), true, new TaskGroupScope(taskGroup, 4, 30, List.of(), List.of()));
    }

    @Test
    void shouldNameCpuIdleUnderTheIdleParentForTheNeighboursWhenItIsUsable() {
        TwoQuestions q = TwoQuestions.of(report("cgroup /system.slice/jenkins.service", CPU_IDLE, IDLE, NICE), PARENT);

        assertThat(q.sameAgent()).isEqualTo("idle protects the 4 other processes of cgroup /system.slice/jenkins.service,"
                + " where this agent's executors run: per-task policies act inside one task group");
        assertThat(q.outsideAgent()).isEqualTo("cpu-idle under the machine-wide idle parent"
                + " /sys/fs/cgroup/cpu/schedpolicy.idle protects the 30 processes in other task groups (other services,"
                + " agents, containers, sessions)");
    }

    @Test
    void shouldSayNothingCanProtectTheNeighboursUntilSetupIsRunWithoutTheIdleParent() {
        TwoQuestions q = TwoQuestions.of(report("cgroup /system.slice/jenkins.service", CPU_IDLE, IDLE, NICE), NO_PARENT);

        assertThat(q.outsideAgent()).isEqualTo("nothing can protect the 30 processes in other task groups (other"
                + " services, agents, containers, sessions) until an administrator runs 'sudo schedpolicy setup --user"
                + " <agent user>': there is no machine-wide idle parent at /sys/fs/cgroup/cpu/schedpolicy.idle");
        assertThat(TwoQuestions.of(report("cgroup /x", CPU_IDLE, IDLE), NOT_IDLE).outsideAgent())
                .contains("until an administrator runs", "is not usable (cpu.idle is not 1");
    }

    @Test
    void shouldSayWhatTheRootCpuCgroupGivesWithoutChangingTheAnswer() {
        TwoQuestions q = TwoQuestions.of(report("autogroup /autogroup-3 in cgroup /", CPU_IDLE, IDLE, NICE), NO_PARENT);

        assertThat(q.outsideAgent()).startsWith("nothing can protect the 30 processes in other task groups")
                .endsWith("; from the root cpu cgroup, where this process runs, its own cpu.idle groups do sit at the top"
                        + " beside them, but an agent run as a service or in a container gets that only from the idle parent");
    }

    @Test
    void shouldFallBackToBatchNice19ForTheSameAgentWhereSchedIdleIsRefused() {
        assertThat(TwoQuestions.of(report("cgroup /u", NO_IDLE, NICE), NO_PARENT).sameAgent())
                .startsWith("batch+nice19 protects the 4 other processes of cgroup /u");
        assertThat(TwoQuestions.of(report("cgroup /u", NO_IDLE), NO_PARENT).sameAgent())
                .isEqualTo("no per-task policy can be applied here (SCHED_IDLE refused (EPERM))");
    }
}
