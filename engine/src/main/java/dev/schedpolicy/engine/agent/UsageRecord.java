package dev.schedpolicy.engine.agent;

import dev.schedpolicy.engine.cgroup.CgroupUsage;

import java.io.Serial;
import java.io.Serializable;

/** CPU use and throttling of a block's cgroups (cpu.stat), summed over its launches. */
public final class UsageRecord implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;

    public static final UsageRecord NONE = new UsageRecord(0, 0, 0, 0, 0);

    private final int groups;
    private final long usageUsec;
    private final long nrPeriods;
    private final long nrThrottled;
    private final long throttledUsec;

    public UsageRecord(final int groups, final long usageUsec, final long nrPeriods, final long nrThrottled,
            final long throttledUsec) {
        this.groups = groups;
        this.usageUsec = usageUsec;
        this.nrPeriods = nrPeriods;
        this.nrThrottled = nrThrottled;
        this.throttledUsec = throttledUsec;
    }

    /** A group whose CPU time could not be read (v1 without cpuacct) counts as a group with 0 us. */
    static UsageRecord of(final CgroupUsage u) {
        return new UsageRecord(1, u.usageUsec().orElse(0), u.nrPeriods(), u.nrThrottled(), u.throttledUsec());
    }

    public UsageRecord plus(final UsageRecord other) {
        return new UsageRecord(groups + other.groups, usageUsec + other.usageUsec, nrPeriods + other.nrPeriods,
                nrThrottled + other.nrThrottled, throttledUsec + other.throttledUsec);
    }

    /** How many launch cgroups were summed; 0 when the block used no cgroup control. */
    public int groups() {
        return groups;
    }

    public long usageUsec() {
        return usageUsec;
    }

    public long nrPeriods() {
        return nrPeriods;
    }

    public long nrThrottled() {
        return nrThrottled;
    }

    public long throttledUsec() {
        return throttledUsec;
    }

    /** Share of quota periods in which the group was throttled, in percent; 0 without periods. */
    public double throttledPercent() {
        return nrPeriods == 0 ? 0 : 100.0 * nrThrottled / nrPeriods;
    }

    /** "1.234 s CPU in 2 cgroups, throttled in 12 of 40 periods (30.0%, 0.456 s)" or "no cgroup used". */
    public String describe() {
        if (groups == 0) {
            return "no cgroup used";
        }
        return String.format(java.util.Locale.ROOT, "%.3f s CPU in %d cgroup%s, throttled in %d of %d periods (%.1f%%, %.3f s)",
                usageUsec / 1e6, groups, groups == 1 ? "" : "s", nrThrottled, nrPeriods, throttledPercent(),
                throttledUsec / 1e6);
    }

    @Override
    public String toString() {
        return describe();
    }
}
