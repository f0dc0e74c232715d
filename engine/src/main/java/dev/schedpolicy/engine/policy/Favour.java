package dev.schedpolicy.engine.policy;

/**
 * How favoured a task is, per kernel value: the order behind "never more favoured than the caller" and behind
 * accepting a command that lowered itself further after it started. Higher ranks are more favoured.
 */
public final class Favour {
    private static final int IDLE = 5;
    private static final int BATCH = 3;
    private static final int DEADLINE = 6;

    private Favour() {
    }

    /** idle < batch < normal (and ext) < realtime < deadline. */
    public static int cpuRank(final int kernelPolicy) {
        return switch (kernelPolicy) {
            case IDLE -> 0;
            case BATCH -> 1;
            case 1, 2 -> 3;
            case DEADLINE -> 4;
            default -> 2;
        };
    }

    public static boolean isRealtime(final int kernelPolicy) {
        return kernelPolicy == 1 || kernelPolicy == 2;
    }

    /** Whether nice matters under this class: SCHED_IDLE ignores it and the realtime classes use their own priority. */
    public static boolean weighsNice(final int kernelPolicy) {
        int rank = cpuRank(kernelPolicy);
        return rank == 1 || rank == 2;
    }

    /**
     * The I/O priority the kernel uses for a task: its own when set, else derived from its CPU class and nice
     * (idle class: idle I/O; realtime: rt; otherwise best-effort (nice + 20) / 5).
     */
    public static int effectiveIo(final int io, final int kernelPolicy, final int nice) {
        if (io >> 13 != 0) {
            return io;
        }
        if (kernelPolicy == IDLE) {
            return IoPriority.idle().kernelValue();
        }
        int level = Math.max(0, Math.min(7, (nice + 20) / 5));
        return new IoPriority(isRealtime(kernelPolicy) ? IoPriority.IoClass.RT : IoPriority.IoClass.BE, level).kernelValue();
    }

    /** idle, then best-effort 7..0, then realtime 7..0; takes effective values (see {@link #effectiveIo}). */
    public static int ioRank(final int effectiveIo) {
        int level = effectiveIo & 0x7;
        return switch (effectiveIo >> 13 & 0x7) {
            case 3 -> 0;
            case 1 -> 20 + 7 - level;
            default -> 10 + 7 - level;
        };
    }
}
