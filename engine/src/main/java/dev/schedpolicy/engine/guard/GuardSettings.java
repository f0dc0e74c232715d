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
 */
public record GuardSettings(Duration period, double waitThreshold, Duration minRunnable, Duration quiet,
        double quietShare, Duration scanPeriod, double busyShare) {
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
    }

    /** 50 ms periods, act above 10% wait, put back after 1 s below 10% of a CPU, scan for busy processes every 250 ms. */
    public static GuardSettings defaults() {
        return new GuardSettings(Duration.ofMillis(50), 0.10, Duration.ofMillis(5), Duration.ofSeconds(1), 0.10,
                Duration.ofMillis(250), 0.05);
    }

    /** The defaults with another threshold, e.g. from {@code --guard-threshold}. */
    public GuardSettings withWaitThreshold(final double threshold) {
        return new GuardSettings(period, threshold, minRunnable, quiet, quietShare, scanPeriod, busyShare);
    }
}
