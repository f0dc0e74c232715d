package dev.schedpolicy.engine.policy;

import java.io.Serializable;

/**
 * What whoever embeds the engine lets policy authors ask for. By default nothing may raise a
 * priority: no realtime class, no negative nice, no I/O priority above the default best-effort 4, no CPU weight
 * above the default 100.
 * Only an administrator (the CLI: root with an explicit flag; Jenkins: the global configuration)
 * turns {@code allowRaise} on.
 *
 * @param allowRaise    whether realtime classes, negative nice, raised I/O priority and CPU weights above 100 are allowed
 * @param minNice       the lowest nice value authors may ask for (0 unless raising is allowed)
 * @param allowCgroups  whether cgroup controls (quota, weight, idle group) may be used
 * @param maxQuotaPercent the highest CPU quota in percent of one CPU, or 0 for "number of CPUs x 100"
 */
public record PolicyLimits(boolean allowRaise, int minNice, boolean allowCgroups, int maxQuotaPercent)
        implements Serializable {
    public static final PolicyLimits DEFAULT = new PolicyLimits(false, 0, true, 0);
    /** The cgroup weight of a group nobody weighted (cgroup v2 cpu.weight 100; v1 cpu.shares 1024). */
    private static final int DEFAULT_WEIGHT = 100;

    public PolicyLimits {
        if (minNice < -20 || minNice > 19) {
            throw new InvalidPolicyException("minimum nice must be -20..19, not " + minNice);
        }
        if (minNice < 0 && !allowRaise) {
            throw new InvalidPolicyException("a negative minimum nice (" + minNice + ") needs allowRaise");
        }
        if (maxQuotaPercent < 0) {
            throw new InvalidPolicyException("maximum CPU quota must be 0 (no limit beyond the CPUs) or a positive percent, not "
                    + maxQuotaPercent);
        }
    }

    /** Limits that allow raising priority, for root who asked for it explicitly. */
    public static PolicyLimits raising() {
        return new PolicyLimits(true, -20, true, 0);
    }

    /**
     * {@link #check(Policy, int)}, and unless raising is allowed, the relative rule: the command is never more
     * favoured than {@code caller}, the priority it starts from (see {@link CallerPriority}).
     */
    public void check(final Policy policy, final int onlineCpus, final CallerPriority caller) {
        check(policy, onlineCpus);
        if (!allowRaise) {
            caller.check(policy);
        }
    }

    /** Throws with a message naming what is allowed when {@code policy} asks for more than these limits permit. */
    public void check(final Policy policy, final int onlineCpus) {
        policy.schedClass().filter(SchedClass::isRealtime).ifPresent(c -> {
            if (!allowRaise) {
                throw new InvalidPolicyException("scheduling class '" + c.label()
                        + "' raises priority and is not allowed here; use " + SchedClass.allowedLabels());
            }
        });
        policy.nice().ifPresent(n -> {
            if (n < minNice) {
                throw new InvalidPolicyException("nice " + n + " is not allowed here; use " + minNice + "..19"
                        + (allowRaise ? "" : " (19 is the lowest priority; negative nice raises priority)"));
            }
        });
        policy.io().filter(IoPriority::raises).ifPresent(io -> {
            if (!allowRaise) {
                throw new InvalidPolicyException("I/O priority '" + io + "' raises priority above the default be:4 and is not allowed here; use idle or be:4..be:7");
            }
        });
        policy.cpuWeight().ifPresent(w -> {
            // a group above the default weight takes CPU from its default siblings (other launches, other containers)
            if (w > DEFAULT_WEIGHT && !allowRaise) {
                throw new InvalidPolicyException("CPU weight " + w + " raises priority above the default " + DEFAULT_WEIGHT
                        + " and is not allowed here; use 1.." + DEFAULT_WEIGHT + " (1 is the lowest)");
            }
        });
        if (policy.needsCgroup() && !allowCgroups) {
            throw new InvalidPolicyException("cgroup controls (quota, weight, cpu-idle) are disabled by the administrator; use a scheduling class, nice or I/O priority");
        }
        int maxQuota = maxQuotaPercent > 0 ? maxQuotaPercent : onlineCpus * 100;
        policy.cpuQuotaPercent().ifPresent(q -> {
            if (q > maxQuota) {
                throw new InvalidPolicyException("CPU quota " + q + "% is above the allowed maximum; use 1.." + maxQuota
                        + " (percent of one CPU" + (maxQuotaPercent > 0 ? ", set by the administrator)" : ", " + onlineCpus + " CPUs here)"));
            }
        });
    }
}
