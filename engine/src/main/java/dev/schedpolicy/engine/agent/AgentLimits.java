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

    /** Nothing may raise priority; cgroups allowed; quota up to the number of CPUs x 100. */
    public static final AgentLimits DEFAULT = new AgentLimits(false, 0, true, 0);

    private final boolean allowRaise;
    private final int minNice;
    private final boolean allowCgroups;
    private final int maxQuotaPercent;

    public AgentLimits(final boolean allowRaise, final int minNice, final boolean allowCgroups, final int maxQuotaPercent) {
        this.allowRaise = allowRaise;
        this.minNice = minNice;
        this.allowCgroups = allowCgroups;
        this.maxQuotaPercent = maxQuotaPercent;
        toPolicyLimits();
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

    @Override
    public String toString() {
        return "allowRaise=" + allowRaise + ", minNice=" + minNice + ", allowCgroups=" + allowCgroups
                + ", maxQuotaPercent=" + maxQuotaPercent;
    }
}
