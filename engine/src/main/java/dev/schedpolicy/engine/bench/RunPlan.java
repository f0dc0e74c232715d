package dev.schedpolicy.engine.bench;

import dev.schedpolicy.engine.policy.Policy;
import dev.schedpolicy.engine.policy.PolicyFloor;
import dev.schedpolicy.engine.scenario.Matrix;
import dev.schedpolicy.engine.scenario.Scenario;
import dev.schedpolicy.engine.scenario.Topology;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/** What a scenario's matrix means in runs: their random order, and each run's background copies and victim workers. */
final class RunPlan {
    private final Scenario scenario;
    private final Matrix matrix;
    private final int ncpu;
    private final List<Topology> topologies;
    private final Policy floor;

    RunPlan(final Scenario scenario, final Matrix matrix, final int ncpu) {
        this(scenario, matrix, ncpu, Policy.DEFAULT);
    }

    /** @param floor the node's default policy, a floor for every process the benchmark starts ({@link #floored}) */
    RunPlan(final Scenario scenario, final Matrix matrix, final int ncpu, final Policy floor) {
        this.scenario = scenario;
        this.matrix = matrix;
        this.ncpu = ncpu;
        this.floor = floor;
        // in the order of the questions the report answers: the agent's own executors first, then its neighbours
        this.topologies = matrix.topologies().stream().sorted().toList();
    }

    /** The matrix's topologies in the order the report answers them (see {@link Topology}). */
    List<Topology> topologies() {
        return topologies;
    }

    /**
     * What one run costs per second of the victim's unloaded time and on top of it (starting the workloads' JVMs,
     * tearing them down), from the quick preset timed on a quiet 2-CPU machine on 2026-11-25: 65 runs of a 1 s
     * victim, half of them loaded to 40-70%, in 3:00, i.e. 2.8 s a run.
     */
    static final double RUN_SECONDS_PER_VICTIM_SECOND = 2.0;
    static final double RUN_FIXED_SECONDS = 0.8;

    /** Every run: calibration, warm-up, baselines and cells. */
    int runCount() {
        return runs(0).size() + scenario.warmup() + (needsCalibration() ? 1 : 0);
    }

    /** A rough duration from the plan, for the start line and to keep presets within their promise. */
    double estimatedSeconds() {
        return runCount() * (matrix.durationMs() / 1000.0 * RUN_SECONDS_PER_VICTIM_SECOND + RUN_FIXED_SECONDS);
    }

    Scenario scenario() {
        return scenario;
    }

    Matrix matrix() {
        return matrix;
    }

    int ncpu() {
        return ncpu;
    }

    /** Every repetition's baseline and cells, shuffled with the seed so slow drifts spread over all cells. */
    List<PlannedRun> runs(final long seed) {
        List<PlannedRun> runs = new ArrayList<>();
        for (int rep = 1; rep <= matrix.repetitions(); rep++) {
            runs.add(new PlannedRun(BenchPolicy.DEFAULT, 0, rep, true, false, Topology.SAME_AGENT));
            for (Topology topology : topologies) {
                for (String label : matrix.policies()) {
                    for (double load : matrix.loads()) {
                        if (!coveredByBaseline(load)) {
                            runs.add(new PlannedRun(BenchPolicy.of(label, ncpu), load, rep, false, false, topology));
                        }
                    }
                }
            }
        }
        Collections.shuffle(runs, new Random(seed));
        return runs;
    }

    /** Load 0 with the policy on the (absent) background is the unloaded baseline itself. */
    boolean coveredByBaseline(final double load) {
        return load == 0 && scenario.policyTarget() == Scenario.PolicyTarget.BACKGROUND
                && scenario.loadAxis() == Scenario.LoadAxis.BACKGROUND && !scenario.victim().isNone();
    }

    boolean needsCalibration() {
        return builtinVictim() || scenario.background().builtin() != null;
    }

    boolean builtinVictim() {
        return !scenario.victim().isNone() && !scenario.victim().isCommand();
    }

    int backgroundCopies(final PlannedRun r) {
        if (scenario.background().isNone() || scenario.loadAxis() == Scenario.LoadAxis.VICTIM_WORKERS) {
            return 0;
        }
        if (r.baseline()) {
            return scenario.victim().isNone() ? 1 : 0;
        }
        return (int) Math.round(r.load() * scenario.background().copiesPerLoad(ncpu));
    }

    int victimWorkers(final PlannedRun r) {
        if (scenario.loadAxis() == Scenario.LoadAxis.VICTIM_WORKERS && !r.baseline()) {
            return Math.max(1, (int) Math.round(r.load() * ncpu));
        }
        return scenario.victim().workers();
    }

    BenchPolicy backgroundPolicy(final PlannedRun r) {
        return floored(!r.baseline() && scenario.policyTarget() == Scenario.PolicyTarget.BACKGROUND ? r.policy()
                : BenchPolicy.DEFAULT);
    }

    BenchPolicy victimPolicy(final PlannedRun r) {
        return floored(!r.baseline() && scenario.policyTarget() == Scenario.PolicyTarget.VICTIM ? r.policy()
                : BenchPolicy.DEFAULT);
    }

    /**
     * What a process started under {@code policy} runs under on this node: the policy merged over the node's default
     * and floored by it, as a build's block is (the row keeps its label). Without a floor, the policy itself.
     */
    BenchPolicy floored(final BenchPolicy policy) {
        if (floor.isDefault()) {
            return policy;
        }
        Policy wanted = policy.isDefault() ? Policy.DEFAULT : Policy.parse(policy.compact());
        return new BenchPolicy(policy.label(), PolicyFloor.apply(floor, floor.overriddenBy(wanted)).policy().toCompact());
    }

    /**
     * The floor in words, for the console and the report: what every row, the test job and the baseline ran as; empty
     * without a floor.
     */
    java.util.Optional<String> floorNote() {
        if (floor.isDefault()) {
            return java.util.Optional.empty();
        }
        List<String> rows = new ArrayList<>();
        for (String label : matrix.policies()) {
            BenchPolicy p = BenchPolicy.of(label, ncpu);
            rows.add(label + " as " + floored(p).compact());
        }
        String target = scenario.policyTarget() == Scenario.PolicyTarget.VICTIM ? "the background" : "the test job";
        return java.util.Optional.of("the node's default policy '" + floor.toCompact() + "' is a floor for every process this"
                + " benchmark starts, so its rows measure it, not the policy alone: " + String.join(", ", rows) + "; "
                + target + ", the baseline and the calibration run as " + floored(BenchPolicy.DEFAULT).compact());
    }

    String summary() {
        return "scenario " + scenario.name() + ": " + matrix.policies().size() + " policies x " + matrix.loads().size()
                + " loads x " + matrix.repetitions() + " repetitions x " + topologies.size() + " topologies ("
                + String.join(", ", topologies.stream().map(Topology::id).toList()) + ") on " + ncpu
                + " CPUs, victim " + matrix.durationMs() + " ms unloaded, about "
                + halfMinutes() + " min";
    }

    /** The estimate to the half minute, e.g. "2.5" or "3". */
    private String halfMinutes() {
        double m = Math.max(0.5, Math.round(estimatedSeconds() / 30) / 2.0);
        return m == Math.rint(m) ? Long.toString((long) m) : Double.toString(m);
    }
}
