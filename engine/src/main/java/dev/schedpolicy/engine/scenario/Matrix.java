package dev.schedpolicy.engine.scenario;

import java.util.List;

/**
 * One preset of the policy x load matrix.
 *
 * @param policies    policy labels (rows): {@code default}, a compact policy such as {@code batch+nice19}, or
 *                    {@code split} (background pinned to the upper half of the CPUs)
 * @param loads       load multiples (columns): background copies = load x copies-per-load, or, on the
 *                    victim-workers axis, victim threads = load x ncpu
 * @param repetitions measured repetitions of every cell
 * @param durationMs  the victim's unloaded run time (its fixed work is calibrated to it), or the measuring
 *                    window of a scenario without a victim
 * @param maxSlowdown a starved built-in victim stops after this many times its unloaded run time (per ncpu
 *                    workers) and reports the rate it reached, so its rate stays exact; the scenario key
 *                    {@code max-slowdown}, {@value #DEFAULT_MAX_SLOWDOWN} unless set
 */
public record Matrix(List<String> policies, List<Double> loads, int repetitions, long durationMs, int maxSlowdown) {
    public static final int DEFAULT_MAX_SLOWDOWN = 10;
    /** Loads are multiples of the CPU count; beyond this a run only measures the machine falling over. */
    public static final double MAX_LOAD = 64;

    public Matrix {
        policies = List.copyOf(policies);
        loads = List.copyOf(loads);
        checkLoads(loads);
    }

    /** Each load in range and none twice. */
    public static void checkLoads(final List<Double> loads) {
        for (int i = 0; i < loads.size(); i++) {
            checkLoad(loads.get(i));
            if (loads.subList(0, i).contains(loads.get(i))) {
                throw new IllegalArgumentException("load " + formatLoad(loads.get(i)) + " is listed twice");
            }
        }
    }

    /** Every front end (scenario file, command line) refuses the same loads with the same words. */
    public static void checkLoad(final double load) {
        if (!(load >= 0 && load <= MAX_LOAD)) {
            throw new IllegalArgumentException("load " + formatLoad(load)
                    + " is out of range; loads are multiples of the CPU count from 0 to " + (int) MAX_LOAD);
        }
    }

    private static String formatLoad(final double load) {
        return load == Math.rint(load) && !Double.isInfinite(load) ? Long.toString((long) load) : Double.toString(load);
    }

    public Matrix(final List<String> policies, final List<Double> loads, final int repetitions, final long durationMs) {
        this(policies, loads, repetitions, durationMs, DEFAULT_MAX_SLOWDOWN);
    }

    public Matrix withPolicies(final List<String> value) {
        return new Matrix(value, loads, repetitions, durationMs, maxSlowdown);
    }

    public Matrix withLoads(final List<Double> value) {
        return new Matrix(policies, value, repetitions, durationMs, maxSlowdown);
    }

    public Matrix withRepetitions(final int value) {
        return new Matrix(policies, loads, value, durationMs, maxSlowdown);
    }

    public Matrix withDurationMs(final long value) {
        return new Matrix(policies, loads, repetitions, value, maxSlowdown);
    }

    public int cells() {
        return policies.size() * loads.size() * repetitions;
    }
}
