package dev.schedpolicy.engine.proc;

/**
 * /proc/.../schedstat: time on the CPU, time waiting on a run queue, and timeslices run.
 * Run-queue wait is the direct measure of interference: time the task was ready but another ran.
 */
public record SchedStat(long onCpuNanos, long runQueueWaitNanos, long timeslices) {
    public static final SchedStat ZERO = new SchedStat(0, 0, 0);

    public static SchedStat parse(final String text) {
        String[] f = text.trim().split("\\s+");
        if (f.length < 3) {
            throw new IllegalArgumentException("not a schedstat line: " + text);
        }
        return new SchedStat(Long.parseLong(f[0]), Long.parseLong(f[1]), Long.parseLong(f[2]));
    }

    public SchedStat plus(final SchedStat other) {
        return new SchedStat(onCpuNanos + other.onCpuNanos, runQueueWaitNanos + other.runQueueWaitNanos,
                timeslices + other.timeslices);
    }

    public SchedStat minus(final SchedStat earlier) {
        return new SchedStat(onCpuNanos - earlier.onCpuNanos, runQueueWaitNanos - earlier.runQueueWaitNanos,
                timeslices - earlier.timeslices);
    }

    /** Share of runnable time spent waiting, 0..1; 0 when the task never ran. */
    public double waitShare() {
        long runnable = onCpuNanos + runQueueWaitNanos;
        return runnable == 0 ? 0 : (double) runQueueWaitNanos / runnable;
    }
}
