package dev.schedpolicy.engine.buildpage;

import dev.schedpolicy.engine.bench.BenchPolicy;
import dev.schedpolicy.engine.scenario.Topology;

import java.io.Serial;
import java.io.Serializable;
import java.util.Locale;
import java.util.OptionalDouble;

/**
 * Decides a build's result from a benchmark: the victim ("test job") must keep at least the given
 * percent of its unloaded work rate under {@code policy} at every load measured, in one topology. A report
 * measures several (executors of the same agent, neighbours outside it, ...) and a policy can protect in one and
 * not, by design, in another: per-task policies (nice, batch, idle) never reach another task group. So the gate
 * judges the topology it is asked about, by default the one the policy is for: same-agent for a per-task policy,
 * outside-agent for a policy with a cgroup part (when the report measured it, else same-agent), and says which.
 */
public final class BenchmarkGate implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;

    /** What the build should become. */
    public enum Outcome { PASS, UNSTABLE, FAILURE }

    private final String policy;
    private final String topology;
    private final double unstableBelow;
    private final double failBelow;

    /** A gate on the policy's default topology (see {@link #topologyFor}). */
    public BenchmarkGate(final String policy, final double unstableBelow, final double failBelow) {
        this(policy, null, unstableBelow, failBelow);
    }

    /**
     * @param policy        the benchmark policy the build's work will run under, e.g. "idle"
     * @param topology      the topology to judge, e.g. "same-agent"; null for the policy's default
     * @param unstableBelow kept % under which the build becomes unstable; 0 to disable
     * @param failBelow     kept % under which the build fails; 0 to disable
     * @throws IllegalArgumentException saying what is allowed
     */
    public BenchmarkGate(final String policy, final String topology, final double unstableBelow, final double failBelow) {
        if (policy == null || policy.isBlank()) {
            throw new IllegalArgumentException("the gate needs the policy to judge, e.g. gatePolicy: 'idle'");
        }
        if (unstableBelow < 0 || unstableBelow > 100 || failBelow < 0 || failBelow > 100) {
            throw new IllegalArgumentException("gate thresholds are percent of the unloaded work rate, 0..100 (0 = off); got unstable "
                    + unstableBelow + ", failure " + failBelow);
        }
        this.policy = policy.trim();
        this.topology = topology == null || topology.isBlank() ? null : checkedTopology(topology);
        this.unstableBelow = unstableBelow;
        this.failBelow = failBelow;
    }

    private static String checkedTopology(final String text) {
        try {
            return Topology.parse(text).id();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("gateTopology: " + e.getMessage(), e);
        }
    }

    public boolean enabled() {
        return unstableBelow > 0 || failBelow > 0;
    }

    /**
     * The topology whose cells judge {@code policy}: {@code asked} when given, else same-agent for a per-task policy
     * and outside-agent for one with a cgroup part, falling back to same-agent when the report did not measure
     * outside-agent; null for a report without topologies (schema 1), whose cells are all one topology.
     */
    public static String topologyFor(final String policy, final String asked, final BenchmarkSummary summary) {
        if (summary.topologies().isEmpty()) {
            return null;
        }
        if (asked != null) {
            return asked;
        }
        if (hasCgroupPart(policy) && summary.topologies().contains(Topology.OUTSIDE_AGENT.id())) {
            return Topology.OUTSIDE_AGENT.id();
        }
        return Topology.SAME_AGENT.id();
    }

    private static boolean hasCgroupPart(final String policy) {
        try {
            return BenchPolicy.of(policy, Runtime.getRuntime().availableProcessors()).needsCgroup();
        } catch (IllegalArgumentException e) {
            return false; // not a policy: judged where per-task policies are, and found unmeasured there
        }
    }

    /** The outcome and one sentence for the console saying why, naming the topology judged. */
    public Verdict evaluate(final BenchmarkSummary summary) {
        if (!enabled()) {
            return new Verdict(Outcome.PASS, "no gate set");
        }
        String judged = topologyFor(policy, topology, summary);
        String where = judged == null ? "" : " in " + judged + " (" + title(judged) + (topology == null ? ", the default for '"
                + policy + "'" : "") + ")";
        OptionalDouble worst = summary.worstKept(policy, judged);
        if (worst.isEmpty()) {
            return new Verdict(Outcome.UNSTABLE, "the gate policy '" + policy + "' has no measured cell" + where + "; measured: "
                    + String.join(", ", summary.policies()) + (judged == null ? "" : " in " + String.join(", ", summary.topologies())));
        }
        double w = worst.getAsDouble();
        String kept = String.format(Locale.ROOT, "under '%s'%s the test job kept %.1f%% of its unloaded rate at worst", policy, where, w);
        if (failBelow > 0 && w < failBelow) {
            return new Verdict(Outcome.FAILURE, kept + ", below the failure threshold " + failBelow + "%");
        }
        if (unstableBelow > 0 && w < unstableBelow) {
            return new Verdict(Outcome.UNSTABLE, kept + ", below the unstable threshold " + unstableBelow + "%");
        }
        return new Verdict(Outcome.PASS, kept + ", at or above the thresholds");
    }

    private static String title(final String topology) {
        try {
            return Topology.parse(topology).title().toLowerCase(Locale.ROOT);
        } catch (IllegalArgumentException e) {
            return topology;
        }
    }

    /** The topology asked for, or null for the policy's default. */
    public String topology() {
        return topology;
    }

    /** The gate's outcome with its reason. */
    public record Verdict(Outcome outcome, String message) {
    }
}
