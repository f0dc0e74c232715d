package dev.schedpolicy.engine.bench;

import dev.schedpolicy.engine.probe.Recommendation;
import dev.schedpolicy.engine.scenario.Scenario;
import dev.schedpolicy.engine.scenario.Topology;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A short topology benchmark that confirms a recommendation: the recommended policy beside default and
 * per-task idle, at one load, for the agent's own executors and for its neighbours outside it (the two questions
 * of {@code bench}), under the recommendation's cgroup parent. About a minute on 2 CPUs; its verdict lines say whether the recommendation held here.
 */
public final class RecommendationCheck {
    static final List<Double> LOADS = List.of(1.0);
    static final int REPETITIONS = 2;
    static final long DURATION_MS = 500;

    private RecommendationCheck() {
    }

    /** The options of the check on a scenario with a background (seed-cpu-looper or javac-background). */
    public static BenchOptions.Builder options(final Scenario scenario, final Recommendation recommendation) {
        List<String> policies = new ArrayList<>(List.of("default", recommendation.policy()));
        if (!policies.contains("idle")) {
            policies.add("idle"); // the per-task policy users try first: the verdict shows where it is not enough
        }
        return BenchOptions.builder(scenario).policies(policies).loads(LOADS).repetitions(REPETITIONS)
                .durationMs(DURATION_MS).topologies(List.of(Topology.SAME_AGENT, Topology.OUTSIDE_AGENT))
                .cgroupParent(recommendation.cgroupParent() == null ? null : Path.of(recommendation.cgroupParent()));
    }
}
