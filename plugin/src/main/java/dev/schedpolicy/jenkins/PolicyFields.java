package dev.schedpolicy.jenkins;

import dev.schedpolicy.engine.agent.PolicyForms;
import dev.schedpolicy.engine.policy.InvalidPolicyException;
import edu.umd.cs.findbugs.annotations.CheckForNull;
import java.io.Serial;
import java.io.Serializable;

/**
 * The options a step or wrapper copies from its author, unvalidated here: every check and the merge
 * into one policy are the engine's ({@link PolicyForms}). Used by {@link WithSchedPolicyStep} and
 * {@link SchedPolicyWrapper}, which expose them as their own @DataBoundSetter properties.
 */
final class PolicyFields implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;

    String policy;
    Integer nice;
    String io;
    Integer cpuQuota;
    Integer cpuWeight;
    Boolean cpuIdle;
    String cpus;
    String onUnsupported;

    /** The canonical compact policy, e.g. "batch+nice19+io-idle+warn". */
    String toCompact() {
        return PolicyForms.compact(policy, nice, io, cpuQuota, cpuWeight, cpuIdle, cpus, onUnsupported);
    }

    /** Rejects the fields as they stand now, so a bad setter value fails where it was written. */
    void validate() {
        try {
            toCompact();
        } catch (InvalidPolicyException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    static @CheckForNull String blankToNull(@CheckForNull final String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }
}
