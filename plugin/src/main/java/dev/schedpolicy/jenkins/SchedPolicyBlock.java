package dev.schedpolicy.jenkins;

import java.io.Serial;
import java.io.Serializable;

/**
 * Body context of a {@code withSchedPolicy} block: its merged policy, so a nested block merges on top
 * of it (inner wins per field) instead of stacking a second park-and-release.
 */
final class SchedPolicyBlock implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;

    private final String effectivePolicy;

    SchedPolicyBlock(final String effectivePolicy) {
        this.effectivePolicy = effectivePolicy;
    }

    String effectivePolicy() {
        return effectivePolicy;
    }
}
