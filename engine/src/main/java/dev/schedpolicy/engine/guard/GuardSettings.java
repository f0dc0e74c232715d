package dev.schedpolicy.engine.guard;

import java.time.Duration;

/**
 * How the guard decides.
 *
 * @param period          how often the guarded step's wait is read; a crossing is acted on at the next period
 * @param waitThreshold   share of the step's runnable time spent waiting for a CPU, over one period, that makes the
 *                        guard act (0.10: the step waited 10% of the time it wanted a CPU)
 * @param minRunnable     a period counts only when the step was runnable (on a CPU or waiting) at least this long,
 *                        so a step that barely ran cannot trip the guard with a few waits
 * @param quiet           competitors are put back once the step has asked for less than {@code quietShare} of a
 *                        CPU for this long (it sleeps, or waits on I/O): it needs no protection then
 * @param quietShare      see {@code quiet}
 * @param scanPeriod      how often competitors are looked for; their CPU use between two scans says who is busy
 * @param busyShare       a competitor is a process that used at least this share of one CPU since the last scan
 * @param fastPeriod      the period while the guard arms: from its start, and again after it put everything back, for
 *                        {@code fastFor}, as long as nothing is lowered. A step that waits from its first instruction
 *                        loses most while the guard has not acted yet; later periods only catch newly busy
 *                        competitors and the step's quiet, where the longer period costs less
 * @param fastFor         see {@code fastPeriod}
 */
public record GuardSettings(Duration period, double waitThreshold, Duration minRunnable, Duration quiet,
        double quietShare, Duration scanPeriod, double busyShare, Duration fastPeriod, Duration fastFor) {
    /** Competitors' CPU counters tick in 10 ms: a first busy scan over a shorter window could miss a hog. */
    static final Duration MIN_BUSY_WINDOW = Duration.ofMillis(20);
    /**
     * How long a step must show no process before what it lowered goes back without the quiet time: a shell step's
     * script shows a moment after its launched shell has exited (re-parented, or in exec).
     */
    static final Duration EMPTY_GRACE = Duration.ofMillis(100);

    public GuardSettings {
        if (period.toMillis() < 10 || period.toMillis() > 1000) {
            throw new IllegalArgumentException("guard period must be 10..1000 ms, got " + period.toMillis() + " ms");
        }
        if (!(waitThreshold > 0 && waitThreshold < 1)) {
            throw new IllegalArgumentException("guard wait threshold must be above 0% and below 100% of the step's"
                    + " runnable time, got " + Math.round(waitThreshold * 100) + "%");
        }
        if (minRunnable.isNegative() || minRunnable.compareTo(period) > 0) {
            throw new IllegalArgumentException("guard minimum runnable time must be 0.." + period.toMillis() + " ms");
        }
        if (quiet.compareTo(period) < 0) {
            throw new IllegalArgumentException("guard quiet time must be at least one period (" + period.toMillis()
                    + " ms)");
        }
        if (!(quietShare >= 0 && quietShare < 1) || !(busyShare > 0 && busyShare < 1)) {
            throw new IllegalArgumentException("guard shares are fractions of one CPU between 0 and 1");
        }
        if (scanPeriod.compareTo(period) < 0) {
            throw new IllegalArgumentException("guard scan period must be at least one period");
        }
        if (fastPeriod.toMillis() < 5 || fastPeriod.compareTo(period) > 0) {
            throw new IllegalArgumentException("guard fast period must be 5.." + period.toMillis() + " ms (the period), got "
                    + fastPeriod.toMillis() + " ms");
        }
        if (fastFor.isNegative()) {
            throw new IllegalArgumentException("guard fast time must not be negative");
        }
    }

    /**
     * 50 ms periods (10 ms for the first 0.5 s of arming), act above 10% wait, put back after 1 s below 10% of a CPU,
     * scan for busy processes every 250 ms.
     */
    public static GuardSettings defaults() {
        return new GuardSettings(Duration.ofMillis(50), 0.10, Duration.ofMillis(5), Duration.ofSeconds(1), 0.10,
                Duration.ofMillis(250), 0.05, Duration.ofMillis(10), Duration.ofMillis(500));
    }

    /** The defaults with another threshold, e.g. from {@code --guard-threshold}. */
    public GuardSettings withWaitThreshold(final double threshold) {
        return new GuardSettings(period, threshold, minRunnable, quiet, quietShare, scanPeriod, busyShare, fastPeriod,
                fastFor);
    }

    /**
     * The period after a tick: fast while arming ({@code armedNanos} ago, nothing lowered); the scan period while
     * acting, since what the guard then waits for (newly busy competitors, the step's quiet time) shows at scans; else
     * the period.
     */
    long periodNanos(final long armedNanos, final boolean acting) {
        if (acting) {
            return scanPeriod.toNanos();
        }
        return armedNanos < fastFor.toNanos() ? fastPeriod.toNanos() : period.toNanos();
    }

    /** The least runnable time over {@code elapsedNanos} that counts: {@code minRunnable} per period, in proportion. */
    long minRunnableNanos(final long elapsedNanos) {
        return Math.min(minRunnable.toNanos(), minRunnable.toNanos() * elapsedNanos / period.toNanos());
    }
}
