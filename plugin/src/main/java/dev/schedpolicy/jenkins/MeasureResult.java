package dev.schedpolicy.jenkins;

import dev.schedpolicy.engine.agent.LaunchTable;
import dev.schedpolicy.engine.agent.MeasureRecord;
import dev.schedpolicy.engine.buildpage.LaunchName;
import dev.schedpolicy.engine.buildpage.UnmeasuredLaunches;
import dev.schedpolicy.engine.fleet.WaitShares;
import java.io.Serial;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
            return new LaunchName("", stage, branch, LaunchName.Step.shown(step), policy);
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

    /**
     * The launches in memory. On disk they are {@link #texts} and {@link #rows} ({@link LaunchTable}: each text once, a
     * line of numbers per launch), which keeps a build of 5,000 steps in about 1 MB instead of 5 to 8 MB of one element
     * per field; files written before that have {@link #launches}, read and never written again.
     */
    private transient List<Launch> all = new ArrayList<>();
    private ArrayList<Launch> launches;
    private ArrayList<String> texts;
    private String rows;
    /** Launches the agent could not report (offline, no answer, evicted), in words. */
    private ArrayList<String> missing = new ArrayList<>();
    /** Launches the agents would not measure, by reason (e.g. in a container); null in files from before. */
    private LinkedHashMap<String, Integer> notMeasured = new LinkedHashMap<>();

    public MeasureResult() {
    }

    /** A copy to add to: the figures collected before (as the build went, or before a restart) and more. */
    MeasureResult(final MeasureResult before) {
        all.addAll(before.all);
        missing.addAll(before.missing);
        notMeasured.putAll(before.notMeasured);
    }

    void add(final Launch launch) {
        all.add(launch);
    }

    void missing(final String why) {
        missing.add(why);
    }

    /** Counts more launches not measured, by reason. */
    void notMeasured(final Map<String, Integer> more) {
        notMeasured = new LinkedHashMap<>(UnmeasuredLaunches.plus(notMeasured, more));
    }

    /** What XStream writes: the same result with its launches as a table. */
    @Serial
    private Object writeReplace() {
        MeasureResult stored = new MeasureResult();
        LaunchTable.Encoded e = LaunchTable.encode(rows());
        stored.texts = new ArrayList<>(e.texts());
        stored.rows = e.rows();
        stored.missing.addAll(missing);
        stored.notMeasured.putAll(notMeasured);
        return stored;
    }

    /** A file read: its table (or, from before, its launches) into memory. A table that does not parse fails the read. */
    @Serial
    private Object readResolve() {
        all = new ArrayList<>();
        if (launches != null) {
            all.addAll(launches);
        }
        if (rows != null) {
            for (LaunchTable.Row r : LaunchTable.decode(texts == null ? List.of() : texts, rows)) {
                all.add(new Launch(r.node(), r.policy(), r.record(), r.stage(), r.branch(), r.step()));
            }
        }
        launches = null;
        texts = null;
        rows = null;
        missing = missing == null ? new ArrayList<>() : missing;
        notMeasured = notMeasured == null ? new LinkedHashMap<>() : notMeasured;
        return this;
    }

    /** The launches as the engine's {@link LaunchTable} and {@link dev.schedpolicy.engine.agent.StageGroups} take them. */
    List<LaunchTable.Row> rows() {
        return all.stream().map(l -> new LaunchTable.Row(l.node, l.policy, l.stage, l.branch, l.step, l.record)).toList();
    }

    public List<Launch> getLaunches() {
        return List.copyOf(all);
    }

    public List<String> getMissing() {
        return List.copyOf(missing);
    }

    /** One line per reason launches were not measured, e.g. "3 launches in containers not measured: ...". */
    public List<String> getNotMeasured() {
        return UnmeasuredLaunches.lines(notMeasured);
    }

    /** The build's wait share over all its measured launches (0..1), or empty when none was measured. */
    public Optional<Double> combinedShare() {
        return WaitShares.combined(all.stream().map(Launch::toShare).toList());
    }

    /** As {@link #combinedShare()}, over the unlowered launches only. */
    public Optional<Double> unloweredShare() {
        return WaitShares.combined(all.stream().filter(l -> !l.isLowered()).map(Launch::toShare).toList());
    }
}
