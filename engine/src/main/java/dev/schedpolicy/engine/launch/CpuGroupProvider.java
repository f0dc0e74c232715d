package dev.schedpolicy.engine.launch;

import dev.schedpolicy.engine.policy.Policy;

/** Makes the child cgroup a policy's quota, weight or idle flag needs. */
@FunctionalInterface
public interface CpuGroupProvider {
    /** @throws PolicyApplyException when no group can be made here, saying why and what to do */
    CpuGroupLease create(Policy policy);

    /** For embedders that never use cgroup controls. */
    CpuGroupProvider NONE = policy -> {
        throw new PolicyApplyException("cgroup controls (quota " + policy.cpuQuotaPercent() + ", weight "
                + policy.cpuWeight() + ", cpu-idle " + policy.cpuIdle() + ") are not available in this launcher");
    };
}
