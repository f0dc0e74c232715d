package dev.schedpolicy.engine.bench;

import dev.schedpolicy.engine.report.TextTable;
import dev.schedpolicy.engine.scenario.Topology;

/**
 * One planned run: a matrix cell's repetition, a baseline or a warm-up.
 *
 * @param policy   the row's policy (default for baselines)
 * @param load     the column's load
 * @param rep      repetition number, from 1
 * @param baseline the unloaded victim the cells are relative to
 * @param warmup   unmeasured
 * @param topology where the background sits relative to the victim (baselines: same-agent, there is none)
 */
record PlannedRun(BenchPolicy policy, double load, int rep, boolean baseline, boolean warmup, Topology topology) {
    static PlannedRun warmUp() {
        return new PlannedRun(BenchPolicy.DEFAULT, 0, 0, true, true, Topology.SAME_AGENT);
    }

    String what() {
        if (warmup) {
            return "warm-up";
        }
        return (baseline ? "baseline" : topology.id() + " " + policy.label() + " load " + TextTable.formatLoad(load))
                + " rep " + rep;
    }
}
