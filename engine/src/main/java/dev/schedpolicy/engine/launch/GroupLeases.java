package dev.schedpolicy.engine.launch;

import dev.schedpolicy.engine.policy.OnUnsupported;
import dev.schedpolicy.engine.policy.Policy;

import java.util.List;

/** Creates the launch's cgroup when the policy needs one, honouring on-unsupported. */
final class GroupLeases {
    private GroupLeases() {
    }

    /** @return the lease, or null when no group is needed or (under warn) none could be made */
    static CpuGroupLease create(final CpuGroupProvider provider, final Policy policy, final List<String> warnings) {
        if (!policy.needsCgroup()) {
            return null;
        }
        try {
            return provider.create(policy);
        } catch (RuntimeException e) {
            if (policy.onUnsupported() == OnUnsupported.FAIL) {
                throw e instanceof PolicyApplyException p ? p
                        : new PolicyApplyException("cannot create a cgroup for '" + policy.toCompact() + "': " + e.getMessage(), e);
            }
            warnings.add("cgroup controls skipped: " + e.getMessage());
            return null;
        }
    }
}
