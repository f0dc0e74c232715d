package dev.schedpolicy.engine.scenario;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * One preset of the policy x load matrix. Its limits live here, in the compact constructor, so scenario
 * files, the CLI's options and the Jenkins step all get the same checks and the same messages.
 *
 * @param policies    policy labels (rows): {@code default}, a compact policy such as {@code batch+nice19}, or
 *                    {@code split} (background pinned to the upper half of the CPUs)
 * @param loads       load multiples (columns), {@value #MIN_LOAD}..{@value #MAX_LOAD}: background copies = load x
 *                    copies-per-load, or, on the victim-workers axis, victim threads = load x ncpu
 * @param repetitions measured repetitions of every cell, {@value #MIN_REPETITIONS}..{@value #MAX_REPETITIONS}
 * @param durationMs  the victim's unloaded run time (its fixed work is calibrated to it), or the measuring
 *                    window of a scenario without a victim; {@value #MIN_DURATION_MS}..{@value #MAX_DURATION_MS}
 * @param maxSlowdown a starved built-in victim stops after this many times its unloaded run time (per ncpu
 *                    workers) and reports the rate it reached, so its rate stays exact; the scenario key
 *                    {@code max-slowdown}, {@value #DEFAULT_MAX_SLOWDOWN} unless set
 * @param topologies  where the background sits relative to the victim; same-agent unless set
 */
public record Matrix(List<String> policies, List<Double> loads, int repetitions, long durationMs, int maxSlowdown,
        List<Topology> topologies) {
    public static final double MIN_LOAD = 0;
    public static final double MAX_LOAD = 64;
    public static final int MIN_REPETITIONS = 1;
    public static final int MAX_REPETITIONS = 100;
    public static final long MIN_DURATION_MS = 100;
    public static final long MAX_DURATION_MS = 600_000;
    public static final int MIN_SLOWDOWN = 2;
    public static final int MAX_SLOWDOWN = 100;
    public static final int DEFAULT_MAX_SLOWDOWN = 10;
    /** A scenario without a {@code [quick]} section gets at most this much of its full matrix as quick preset. */
    static final int QUICK_POLICIES = 6;
    static final int QUICK_LOADS = 3;
    static final int QUICK_REPETITIONS = 3;
    static final long QUICK_DURATION_MS = 1000;

    public Matrix {
        policies = List.copyOf(Objects.requireNonNull(policies, "policies"));
        loads = List.copyOf(Objects.requireNonNull(loads, "loads"));
        if (policies.isEmpty()) {
            throw new IllegalArgumentException("a matrix needs at least one policy");
        }
        if (new HashSet<>(policies).size() != policies.size()) {
            throw new IllegalArgumentException("policies must not repeat, got " + String.join(",", policies));
        }
        checkLoads(loads);
        topologies = List.copyOf(Objects.requireNonNull(topologies, "topologies"));
        if (topologies.isEmpty() || new HashSet<>(topologies).size() != topologies.size()) {
            throw new IllegalArgumentException("topologies must be one or more of " + Topology.ids()
                    + " without repeats, got " + topologies.stream().map(Topology::id).toList());
        }
        if (repetitions < MIN_REPETITIONS || repetitions > MAX_REPETITIONS) {
            throw new IllegalArgumentException("repetitions must be " + MIN_REPETITIONS + ".." + MAX_REPETITIONS
                    + ", not " + repetitions);
        }
        if (durationMs < MIN_DURATION_MS || durationMs > MAX_DURATION_MS) {
            throw new IllegalArgumentException("duration must be " + MIN_DURATION_MS + ".." + MAX_DURATION_MS
                    + " ms, not " + durationMs);
        }
        if (maxSlowdown < MIN_SLOWDOWN || maxSlowdown > MAX_SLOWDOWN) {
            throw new IllegalArgumentException("max-slowdown must be " + MIN_SLOWDOWN + ".." + MAX_SLOWDOWN
                    + ", not " + maxSlowdown);
        }
    }

    public Matrix(final List<String> policies, final List<Double> loads, final int repetitions, final long durationMs,
            final int maxSlowdown) {
        this(policies, loads, repetitions, durationMs, maxSlowdown, List.of(Topology.SAME_AGENT));
    }

    public Matrix(final List<String> policies, final List<Double> loads, final int repetitions, final long durationMs) {
        this(policies, loads, repetitions, durationMs, DEFAULT_MAX_SLOWDOWN);
    }

    /** Which preset a run uses. */
    public enum Preset {
        QUICK, FULL;

        /**
         * The one rule every front end follows: quick unless the full matrix is asked for or the matrix is given
         * explicitly (policies, loads or repetitions); asking for both presets is an error.
         *
         * @param quickAsked   quick was asked for explicitly
         * @param fullAsked    full was asked for explicitly
         * @param matrixGiven  policies, loads or repetitions were given
         */
        public static Preset resolve(final boolean quickAsked, final boolean fullAsked, final boolean matrixGiven) {
            if (quickAsked && fullAsked) {
                throw new IllegalArgumentException("the quick and the full preset exclude each other; give one of them");
            }
            return quickAsked || !fullAsked && !matrixGiven ? QUICK : FULL;
        }

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The quick preset of a scenario that has no {@code [quick]} section: the start of its full matrix. */
    public static Matrix quickFrom(final Matrix full) {
        return new Matrix(full.policies.subList(0, Math.min(QUICK_POLICIES, full.policies.size())),
                full.loads.subList(0, Math.min(QUICK_LOADS, full.loads.size())),
                Math.min(QUICK_REPETITIONS, full.repetitions), Math.min(QUICK_DURATION_MS, full.durationMs),
                full.maxSlowdown, full.topologies);
    }

    /** Throws with a message that says what is allowed when a load list is not valid. */
    public static void checkLoads(final List<Double> loads) {
        if (loads.isEmpty()) {
            throw new IllegalArgumentException("a matrix needs at least one load");
        }
        Set<Double> seen = new HashSet<>();
        for (Double l : loads) {
            if (l == null || !(l >= MIN_LOAD && l <= MAX_LOAD)) {
                throw new IllegalArgumentException("load " + l + " is out of range; loads are multiples of the CPU count"
                        + " from 0 to 64, e.g. 0,1,2,4");
            }
            if (!seen.add(l)) {
                throw new IllegalArgumentException("load " + l + " is listed twice");
            }
        }
    }

    /** Parses a comma-separated load list such as {@code 1,2,4} and checks it. */
    public static List<Double> parseLoads(final String text) {
        List<Double> out = new ArrayList<>();
        for (String part : text.split(",", -1)) {
            try {
                out.add(Double.parseDouble(part.strip()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("loads are multiples of the CPU count from 0 to 64, comma-separated"
                        + " (e.g. 0,1,2,4); '" + part.strip() + "' is not a number", e);
            }
        }
        checkLoads(out);
        return out;
    }

    /** This matrix with the given parts replaced (null keeps a part), checked like any other matrix. */
    public Matrix customised(final List<String> newPolicies, final List<Double> newLoads, final Integer newRepetitions,
            final Long newDurationMs) {
        return new Matrix(newPolicies == null ? policies : newPolicies, newLoads == null ? loads : newLoads,
                newRepetitions == null ? repetitions : newRepetitions,
                newDurationMs == null ? durationMs : newDurationMs, maxSlowdown, topologies);
    }

    /** This matrix with other topologies (null keeps them). */
    public Matrix withTopologies(final List<Topology> value) {
        return value == null ? this : new Matrix(policies, loads, repetitions, durationMs, maxSlowdown, value);
    }

    public int cells() {
        return policies.size() * loads.size() * repetitions * topologies.size();
    }
}
