package dev.schedpolicy.jenkins;

import dev.schedpolicy.engine.agent.LaunchName;
import dev.schedpolicy.engine.agent.MeasureRecord;
import dev.schedpolicy.engine.fleet.WaitShares;
import java.io.Serial;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** A build's measured launches, as its agents reported them; persisted by {@link MeasureBuildAction}. */
public final class MeasureResult implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;

    /**
     * One launch: the node it ran on ("" built-in), its policy ("normal": not lowered), the agent's figures, and where
     * in the build it ran (stage, parallel branch, step; "" when not known, null in figures stored before).
     */
    public static final class Launch implements Serializable {
        @Serial
        private static final long serialVersionUID = 1L;
        private final String node;
        private final String policy;
        private final MeasureRecord record;
        private final String stage;
        private final String branch;
        private final String step;

        Launch(final String node, final String policy, final MeasureRecord record, final String stage, final String branch,
                final String step) {
            this.node = node;
            this.policy = policy;
            this.record = record;
            this.stage = stage;
            this.branch = branch;
            this.step = step;
        }

        /** The stage, parallel branch and step the launch ran in, e.g. {@code stage 'Test' › sh 'make'}; "" when not known. */
        public LaunchName where() {
            return new LaunchName("", stage, branch, step, policy);
        }

        public String getNode() {
            return node;
        }

        public String getPolicy() {
            return policy;
        }

        public MeasureRecord getRecord() {
            return record;
        }

        public boolean isLowered() {
            return policy != null && !policy.isBlank() && !"normal".equals(policy);
        }

        WaitShares.Launch toShare() {
            return new WaitShares.Launch(node, isLowered(), record.waitNanos(), record.sampledCpuNanos());
        }
    }

    private final ArrayList<Launch> launches = new ArrayList<>();
    /** Launches the agent could not report (offline, no answer), in words. */
    private final ArrayList<String> missing = new ArrayList<>();

    public MeasureResult() {
    }

    /** A copy to add to: the figures collected before (as the build went, or before a restart) and more. */
    MeasureResult(final MeasureResult before) {
        launches.addAll(before.launches);
        missing.addAll(before.missing);
    }

    void add(final Launch launch) {
        launches.add(launch);
    }

    void missing(final String why) {
        missing.add(why);
    }

    public List<Launch> getLaunches() {
        return List.copyOf(launches);
    }

    public List<String> getMissing() {
        return List.copyOf(missing);
    }

    /** The build's wait share over all its measured launches (0..1), or empty when none was measured. */
    public Optional<Double> combinedShare() {
        return WaitShares.combined(launches.stream().map(Launch::toShare).toList());
    }

    /** As {@link #combinedShare()}, over the unlowered launches only. */
    public Optional<Double> unloweredShare() {
        return WaitShares.combined(launches.stream().filter(l -> !l.isLowered()).map(Launch::toShare).toList());
    }
}
