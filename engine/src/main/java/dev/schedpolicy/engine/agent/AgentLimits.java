package dev.schedpolicy.engine.agent;

import dev.schedpolicy.engine.policy.PolicyLimits;

import java.io.Serial;
import java.io.Serializable;

/**
 * The administrator's limits as plain values, so they cross remoting without engine types.
 * Validated on construction by {@link PolicyLimits}.
 */
public final class AgentLimits implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;

    /** Nothing may raise priority; cgroups allowed; quota up to the number of CPUs x 100; the default is a floor. */
    public static final AgentLimits DEFAULT = new AgentLimits(false, 0, true, 0);

    private final boolean allowRaise;
    private final int minNice;
    private final boolean allowCgroups;
    private final int maxQuotaPercent;
    private final boolean allowAboveDefault;

    public AgentLimits(final boolean allowRaise, final int minNice, final boolean allowCgroups, final int maxQuotaPercent) {
        this(allowRaise, minNice, allowCgroups, maxQuotaPercent, false);
    }

    /**
     * @param allowAboveDefault whether build authors may run above the administrator's default policy
     *                          (otherwise the default is a floor, see {@link dev.schedpolicy.engine.policy.PolicyFloor})
     * @throws dev.schedpolicy.engine.policy.InvalidPolicyException when the combination is not valid
     */
    public AgentLimits(final boolean allowRaise, final int minNice, final boolean allowCgroups, final int maxQuotaPercent,
            final boolean allowAboveDefault) {
        this.allowRaise = allowRaise;
        this.minNice = minNice;
        this.allowCgroups = allowCgroups;
        this.maxQuotaPercent = maxQuotaPercent;
        this.allowAboveDefault = allowAboveDefault;
        toPolicyLimits();
    }

    /**
     * The limits of stored settings that may be inconsistent (an older or hand-edited configuration):
     * never throws, and resolves every inconsistency towards less priority (a negative minimum nice
     * without allowRaise becomes 0, a negative quota maximum becomes "no extra maximum", nice is
     * kept in -20..19), so a bad setting cannot break every launch nor raise anything.
     */
    public static AgentLimits lenient(final boolean allowRaise, final int minNice, final boolean allowCgroups,
            final int maxQuotaPercent, final boolean allowAboveDefault) {
        int nice = Math.max(allowRaise ? -20 : 0, Math.min(19, minNice));
        return new AgentLimits(allowRaise, nice, allowCgroups, Math.max(0, maxQuotaPercent), allowAboveDefault);
    }

    public PolicyLimits toPolicyLimits() {
        return new PolicyLimits(allowRaise, minNice, allowCgroups, maxQuotaPercent);
    }

    public boolean allowRaise() {
        return allowRaise;
    }

    public int minNice() {
        return minNice;
    }

    public boolean allowCgroups() {
        return allowCgroups;
    }

    public int maxQuotaPercent() {
        return maxQuotaPercent;
    }

    public boolean allowAboveDefault() {
        return allowAboveDefault;
    }

    @Override
    public String toString() {
        return "allowRaise=" + allowRaise + ", minNice=" + minNice + ", allowCgroups=" + allowCgroups
                + ", maxQuotaPercent=" + maxQuotaPercent + ", allowAboveDefault=" + allowAboveDefault;
    }
}
