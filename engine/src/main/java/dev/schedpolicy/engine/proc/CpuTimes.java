package dev.schedpolicy.engine.proc;

/**
 * The first line of /proc/stat: all CPUs' time since boot.
 *
 * @param idleNs  idle + iowait, in ns
 * @param totalNs user through steal, in ns
 */
public record CpuTimes(long idleNs, long totalNs) {
    private static final long NS_PER_TICK = 1_000_000_000L / TaskStat.TICKS_PER_SECOND;

    /** Parses the {@code cpu  user nice system idle iowait irq softirq steal ...} line. */
    public static CpuTimes parse(final String statText) {
        String first = statText.lines().findFirst().orElse("");
        String[] f = first.trim().split("\\s+");
        if (f.length < 6 || !f[0].equals("cpu")) {
            throw new IllegalArgumentException("not the cpu line of /proc/stat: " + first);
        }
        long total = 0;
        for (int i = 1; i < Math.min(f.length, 9); i++) {
            total += Long.parseLong(f[i]);
        }
        long idle = Long.parseLong(f[4]) + Long.parseLong(f[5]);
        return new CpuTimes(idle * NS_PER_TICK, total * NS_PER_TICK);
    }
}
