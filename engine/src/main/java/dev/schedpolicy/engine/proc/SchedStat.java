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

    /** Share of runnable time spent waiting, 0..1; 0 when the task never ran. See {@link #waitShare(long, long)}. */
    public double waitShare() {
        return waitShare(runQueueWaitNanos, onCpuNanos);
    }

    /**
     * Run-queue wait over runnable time (wait + on-CPU), 0..1: the one place every figure of interference (a step's,
     * a launch record's, an agent's over many launches, the guard's) takes its share from. A negative figure counts as
     * none: -1 stands for "not measured", and a delta goes negative when tasks ended between two reads. 0 when nothing
     * was runnable. Both figures in one unit (nanoseconds here, milliseconds in the guard's report).
     */
    public static double waitShare(final long waitNanos, final long onCpuNanos) {
        long wait = Math.max(0, waitNanos);
        long runnable = wait + Math.max(0, onCpuNanos);
        return runnable == 0 ? 0 : (double) wait / runnable;
    }
}
