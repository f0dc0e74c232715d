package dev.schedpolicy.engine.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedpolicy.engine.scenario.Matrix;
import dev.schedpolicy.engine.scenario.Scenario;
import dev.schedpolicy.engine.scenario.ScenarioCatalog;
import dev.schedpolicy.engine.scenario.Topology;
import org.junit.jupiter.api.Test;

/** What {@code ./schedpolicy bench} runs with no options: the two questions of issue 18, within 3 minutes on 2 CPUs. */
class QuickPresetTest {
    private final Scenario seed = new ScenarioCatalog(Benchmark::validatePolicy).load(ScenarioCatalog.BUILT_IN.get(0));
    private final RunPlan plan = new RunPlan(seed, seed.matrix(Matrix.Preset.QUICK), 2);

    @Test
    void shouldAnswerTheAgentsOwnExecutorsFirstAndItsNeighboursSecond() {
        assertThat(seed.name()).isEqualTo("seed-cpu-looper");
        assertThat(plan.topologies()).containsExactly(Topology.SAME_AGENT, Topology.OUTSIDE_AGENT);
        // the per-task policy for the first question, the cgroup policy for the second, default as the reference, and
        // the guard (withSchedGuard's way: the victim guarded, the background unlowered) for both
        assertThat(plan.matrix().policies()).containsExactly("default", "idle", "cpu-idle", "guard");
    }

    @Test
    void shouldPlanAtMostThreeMinutesOnTwoCpus() {
        // 4 policies x 2 loads x 3 repetitions x 2 topologies + 3 baselines + warm-up + calibration
        assertThat(plan.runCount()).isEqualTo(4 * 2 * 3 * 2 + 3 + 1 + 1);
        assertThat(plan.estimatedSeconds()).isLessThanOrEqualTo(180);
        assertThat(plan.summary()).contains("about 2.5 min");
    }

    @Test
    void shouldKeepTheQuestionOrderWhateverOrderTheTopologiesAreGivenIn() {
        RunPlan reversed = new RunPlan(seed, seed.matrix(Matrix.Preset.QUICK).withTopologies(
                java.util.List.of(Topology.OTHER_SESSION, Topology.OUTSIDE_AGENT, Topology.SAME_AGENT)), 2);
        assertThat(reversed.topologies()).containsExactly(Topology.SAME_AGENT, Topology.OUTSIDE_AGENT,
                Topology.OTHER_SESSION);
    }
}
