package dev.schedpolicy.engine.agent;

import dev.schedpolicy.engine.guard.Competitor;
import dev.schedpolicy.engine.guard.GuardReport;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The guard's one line for a block: names only what its reader may read. */
class GuardSummaryTest {
    private static GuardReport.LoweredTime lowered(final long pid, final int times) {
        return new GuardReport.LoweredTime(new Competitor(pid, "cc1plus"), "moved into the cpu.idle group /g", 4_000, times);
    }

    @Test
    void shouldNameALoweredLaunchOnlyWhenItBelongsToTheSameJob() {
        GuardReport report = new GuardReport(20_000, 18_000, 900, 300, 17_000, 1, 40,
                List.of(lowered(11, 1), lowered(12, 1), lowered(21, 2)), List.of(), true);
        GuardRecord record = new GuardRecord("t", report, Map.of(11L, "a", 12L, "a", 21L, "b"),
                Map.of("a", "folder/tests", "b", "secret-compile"), Map.of("a", "folder/tests #4", "b", "secret-compile #9"));

        assertThat(GuardSummary.of(List.of(record)).line("folder/tests"::equals)).isEqualTo("guard: waited 0.9 s for a CPU in 18.0 s"
                + " runnable (0.3 s of it before it acted); acted 1 time for 17.0 s; lowered 2 launches, 3 times in all:"
                + " folder/tests #4, another launch on this agent; all put back");
        assertThat(GuardSummary.of(List.of(record)).line("other"::equals)).doesNotContain("secret").doesNotContain("folder/tests")
                .contains("lowered 2 launches, 3 times in all: 2 other launches on this agent");
    }

    @Test
    void shouldCountALaunchThatSeveralGuardsOfTheBlockLoweredOnce() {
        GuardReport first = new GuardReport(20_000, 18_000, 900, 300, 17_000, 1, 40, List.of(lowered(21, 1)), List.of(), true);
        GuardReport second = new GuardReport(10_000, 9_000, 500, 100, 8_000, 1, 40, List.of(lowered(21, 1), lowered(22, 1)),
                List.of(), true);
        Map<Long, String> launchOf = Map.of(21L, "b", 22L, "b");
        GuardSummary s = GuardSummary.of(List.of(
                new GuardRecord("t1", first, launchOf, Map.of("b", "compile"), Map.of("b", "compile #9")),
                new GuardRecord("t2", second, launchOf, Map.of("b", "compile"), Map.of("b", "compile #9"))));
        assertThat(s.loweredLaunches()).isEqualTo(1);
        assertThat(s.loweredTimes()).isEqualTo(2);
        assertThat(s.line("compile"::equals)).contains("acted 2 times for 25.0 s; lowered 1 launch, 2 times in all: compile #9;");
    }

    @Test
    void shouldSayWhenTheStepNeverWaitedEnoughToAct() {
        GuardReport report = new GuardReport(5_000, 4_000, 20, 20, 0, 0, -1, List.of(), List.of(), true);
        assertThat(GuardSummary.of(List.of(new GuardRecord("t", report, Map.of(), Map.of(), Map.of()))).line("j"::equals))
                .isEqualTo("guard: waited 0.0 s for a CPU in 4.0 s runnable; never over the threshold, nothing lowered");
    }

    @Test
    void shouldSayWhenNoLaunchReachedTheGuard() {
        assertThat(GuardSummary.of(List.of()).line(j -> true)).isEqualTo("guard: no launch of the block reached the agent's guard");
    }

    @Test
    void shouldSayWhenTheAgentHadNoRecordOfAGuardedLaunch() {
        assertThat(GuardSummary.of(List.of(), 1).line(j -> true)).isEqualTo("guard: no record of 1 guarded launch: the agent's"
                + " connection ended while it ran, and its guard with it; what it had lowered goes home as the agent connects again");
        GuardReport report = new GuardReport(5_000, 4_000, 20, 20, 0, 0, -1, List.of(), List.of(), true);
        assertThat(GuardSummary.of(List.of(new GuardRecord("t", report, Map.of(), Map.of(), Map.of())), 2).line(j -> true))
                .endsWith("nothing lowered; also no record of 2 guarded launches: the agent's connection ended while they ran,"
                        + " and their guard with it");
    }

    @Test
    void shouldSayThatTheControllerRestartedWhileTheBlockRan() {
        assertThat(GuardSummary.afterRestart().line(j -> true)).isEqualTo("guard: the controller restarted while the block ran,"
                + " so what its guard did is not known; a guard ends with its agent's connection, and what it had lowered goes"
                + " home as the agent connects again");
    }

    @Test
    void shouldKeepABoundedNumberOfLoweredLaunchesAndCountTheRest() {
        List<GuardReport.LoweredTime> many = new java.util.ArrayList<>();
        Map<Long, String> launchOf = new java.util.HashMap<>();
        Map<String, String> owners = new java.util.HashMap<>();
        for (long pid = 1; pid <= 50; pid++) {
            many.add(lowered(pid, 2));
            launchOf.put(pid, "l" + pid);
            owners.put("l" + pid, "compile");
        }
        GuardReport report = new GuardReport(20_000, 18_000, 900, 300, 17_000, 1, 40, many, List.of(), true);
        GuardSummary s = GuardSummary.of(List.of(new GuardRecord("t", report, launchOf, owners, Map.of())));
        assertThat(s.lowered()).hasSize(GuardSummary.MAX_LOWERED);
        assertThat(s.loweredLaunches()).isEqualTo(50);
        assertThat(s.loweredTimes()).isEqualTo(100);
        assertThat(s.names("compile"::equals)).hasSize(GuardSummary.MAX_LOWERED + 1).last()
                .isEqualTo("30 other launches on this agent");
        assertThat(s.names(j -> false)).containsExactly("50 other launches on this agent");
    }
}
