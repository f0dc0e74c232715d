package dev.schedpolicy.engine.cgroup;

import java.util.Objects;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * CPU limits for one cgroup. Absent values leave the kernel default (no quota, weight 100, not idle).
 *
 * @param quotaPercent percent of one CPU per period, e.g. 50 or 150 (1.5 CPUs)
 * @param weight       relative weight 1..10000 as in cgroup v2 cpu.weight (v1 maps it to cpu.shares)
 * @param idle         cpu.idle: the group competes with its siblings like a SCHED_IDLE task
 */
public record CpuLimits(OptionalInt quotaPercent, OptionalInt weight, boolean idle) {
    /** The CFS period we always use; 100 ms is the kernel default, so quotas read the same everywhere. */
    public static final long PERIOD_US = 100_000;
    public static final int MIN_WEIGHT = 1;
    public static final int MAX_WEIGHT = 10_000;

    public CpuLimits {
        Objects.requireNonNull(quotaPercent, "quotaPercent (use OptionalInt.empty() for no quota)");
        Objects.requireNonNull(weight, "weight (use OptionalInt.empty() for the default)");
        if (quotaPercent.isPresent() && quotaPercent.getAsInt() < 1) {
            throw new IllegalArgumentException("CPU quota must be at least 1 (percent of one CPU), got "
                    + quotaPercent.getAsInt());
        }
        if (weight.isPresent() && (weight.getAsInt() < MIN_WEIGHT || weight.getAsInt() > MAX_WEIGHT)) {
            throw new IllegalArgumentException("CPU weight must be " + MIN_WEIGHT + ".." + MAX_WEIGHT + ", got "
                    + weight.getAsInt());
        }
    }

    /** The cgroup v1 cpu.shares (and docker's --cpu-shares) that carries {@code weight}, by systemd's mapping. */
    public static long sharesForWeight(final int weight) {
        return V1CpuController.sharesForWeight(weight);
    }

    public static CpuLimits none() {
        return new CpuLimits(OptionalInt.empty(), OptionalInt.empty(), false);
    }

    public CpuLimits withQuotaPercent(final int percent) {
        return new CpuLimits(OptionalInt.of(percent), weight, idle);
    }

    public CpuLimits withWeight(final int newWeight) {
        return new CpuLimits(quotaPercent, OptionalInt.of(newWeight), idle);
    }

    public CpuLimits withIdle(final boolean newIdle) {
        return new CpuLimits(quotaPercent, weight, newIdle);
    }

    /** Quota per {@link #PERIOD_US} in microseconds: percent * 1000, so 150 % is 150000 us per 100000 us. */
    public OptionalLong quotaUs() {
        return quotaPercent.isPresent() ? OptionalLong.of(quotaPercent.getAsInt() * 1000L) : OptionalLong.empty();
    }
}
