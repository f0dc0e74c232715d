package dev.schedpolicy.engine.scenario;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One checkable part of an expectation: how much of its unloaded rate the victim keeps, at its worst load, when
 * the background runs under a policy, e.g. {@code idle >= 90} or {@code default < 99}. A claim can hold only with
 * or only without the machine-wide idle parent ({@code cpu-idle >= 99 with idle parent}), because a cpu.idle group
 * reaches the neighbours outside an agent only from there. The report checks every claim against the cells it
 * measured and says where a run differs, so an expectation printed under a verdict never contradicts it silently.
 *
 * @param policy   the policy label, as in the matrix
 * @param atLeast  true: kept % at least {@code keptPct} at every load; false: below it at some load
 * @param keptPct  the bound, 0..200
 * @param when     whether the claim needs the idle parent, its absence, or neither
 */
public record Claim(String policy, boolean atLeast, double keptPct, When when) {
    private static final Pattern FORM = Pattern.compile(
            "(\\S+)\\s*(>=|<)\\s*(\\d+(?:\\.\\d+)?)\\s*(with idle parent|without idle parent)?");

    /** When a claim applies. */
    public enum When {
        ALWAYS(""), WITH_IDLE_PARENT(" with idle parent"), WITHOUT_IDLE_PARENT(" without idle parent");

        private final String suffix;

        When(final String suffix) {
            this.suffix = suffix;
        }
    }

    public Claim {
        if (policy == null || policy.isBlank()) {
            throw new IllegalArgumentException("a claim needs a policy");
        }
        if (!(keptPct >= 0 && keptPct <= 200)) {
            throw new IllegalArgumentException("a claim's kept % must be 0..200, not " + keptPct);
        }
    }

    /** Reads {@code POLICY >= PCT} or {@code POLICY < PCT}, optionally followed by {@code with idle parent} or {@code without idle parent}. */
    public static Claim parse(final String text) {
        Matcher m = FORM.matcher(text.strip().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException("claim '" + text.strip() + "' must look like 'idle >= 90', 'default < 99'"
                    + " or 'cpu-idle >= 99 with idle parent' (POLICY >= or < kept %, optionally 'with idle parent' or"
                    + " 'without idle parent')");
        }
        When when = m.group(4) == null ? When.ALWAYS
                : m.group(4).startsWith("with ") ? When.WITH_IDLE_PARENT : When.WITHOUT_IDLE_PARENT;
        return new Claim(m.group(1), m.group(2).equals(">="), Double.parseDouble(m.group(3)), when);
    }

    /** Whether the claim is about a run whose cgroup policies did ({@code idleParent}) or did not use the idle parent. */
    public boolean appliesTo(final boolean idleParent) {
        return when == When.ALWAYS || (when == When.WITH_IDLE_PARENT) == idleParent;
    }

    /**
     * Where a measurement contradicts the claim, in words, or empty when it holds.
     *
     * @param worstKept the policy's lowest kept % over the loads above 0
     * @param atLoad    that load, as printed
     */
    public Optional<String> contradiction(final double worstKept, final String atLoad) {
        boolean holds = atLeast ? worstKept >= keptPct : worstKept < keptPct;
        if (holds || Double.isNaN(worstKept)) {
            return Optional.empty();
        }
        return Optional.of(String.format(Locale.ROOT, "expected %s; it kept %.1f%% at load %s", describe(), worstKept,
                atLoad) + (atLeast ? "" : " (its worst load)"));
    }

    /** E.g. "idle to keep at least 90%" or "default to keep less than 99% at some load". */
    public String describe() {
        return String.format(Locale.ROOT, "%s to keep %s %s%%%s", policy, atLeast ? "at least" : "less than",
                trim(keptPct), atLeast ? "" : " at some load");
    }

    @Override
    public String toString() {
        return policy + (atLeast ? " >= " : " < ") + trim(keptPct) + when.suffix;
    }

    private static String trim(final double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
