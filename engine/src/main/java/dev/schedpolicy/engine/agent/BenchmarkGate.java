package dev.schedpolicy.engine.agent;

import java.io.Serial;
import java.io.Serializable;
import java.util.Locale;
import java.util.OptionalDouble;

/**
 * Decides a build's result from a benchmark: the victim ("test job") must keep at least the given
 * percent of its unloaded work rate under {@code policy} at every load measured.
 */
public final class BenchmarkGate implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;

    /** What the build should become. */
    public enum Outcome { PASS, UNSTABLE, FAILURE }

    private final String policy;
    private final double unstableBelow;
    private final double failBelow;

    /**
     * @param policy        the benchmark policy the build's work will run under, e.g. "idle"
     * @param unstableBelow kept % under which the build becomes unstable; 0 to disable
     * @param failBelow     kept % under which the build fails; 0 to disable
     */
    public BenchmarkGate(final String policy, final double unstableBelow, final double failBelow) {
        if (policy == null || policy.isBlank()) {
            throw new IllegalArgumentException("the gate needs the policy to judge, e.g. gatePolicy: 'idle'");
        }
        if (unstableBelow < 0 || unstableBelow > 100 || failBelow < 0 || failBelow > 100) {
            throw new IllegalArgumentException("gate thresholds are percent of the unloaded work rate, 0..100 (0 = off); got unstable "
                    + unstableBelow + ", failure " + failBelow);
        }
        this.policy = policy.trim();
        this.unstableBelow = unstableBelow;
        this.failBelow = failBelow;
    }

    public boolean enabled() {
        return unstableBelow > 0 || failBelow > 0;
    }

    /** The outcome and one sentence for the console saying why. */
    public Verdict evaluate(final BenchmarkSummary summary) {
        if (!enabled()) {
            return new Verdict(Outcome.PASS, "no gate set");
        }
        OptionalDouble worst = summary.worstKept(policy);
        if (worst.isEmpty()) {
            return new Verdict(Outcome.UNSTABLE, "the gate policy '" + policy + "' has no measured cell; measured: "
                    + String.join(", ", summary.policies()));
        }
        double w = worst.getAsDouble();
        String kept = String.format(Locale.ROOT, "under '%s' the test job kept %.1f%% of its unloaded rate at worst", policy, w);
        if (failBelow > 0 && w < failBelow) {
            return new Verdict(Outcome.FAILURE, kept + ", below the failure threshold " + failBelow + "%");
        }
        if (unstableBelow > 0 && w < unstableBelow) {
            return new Verdict(Outcome.UNSTABLE, kept + ", below the unstable threshold " + unstableBelow + "%");
        }
        return new Verdict(Outcome.PASS, kept + ", at or above the thresholds");
    }

    /** The gate's outcome with its reason. */
    public record Verdict(Outcome outcome, String message) {
    }
}
