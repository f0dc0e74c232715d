package dev.schedpolicy.jenkins;

import dev.schedpolicy.engine.agent.CgroupParents;
import dev.schedpolicy.engine.agent.PolicyForms;
import dev.schedpolicy.engine.policy.InvalidPolicyException;
import edu.umd.cs.findbugs.annotations.CheckForNull;
import edu.umd.cs.findbugs.annotations.NonNull;
import hudson.AbortException;
import hudson.Extension;
import hudson.model.Describable;
import hudson.model.Descriptor;
import hudson.util.FormValidation;
import hudson.util.ListBoxModel;
import java.io.Serial;
import java.io.Serializable;
import java.nio.file.Files;
import java.util.List;
import java.util.function.Consumer;
import net.sf.json.JSONObject;

/**
 * The policy options of {@link WithSchedPolicyStep} and {@link SchedPolicyWrapper}, in one place:
 * their values (unvalidated here: every check and the merge into one policy are the engine's,
 * {@link PolicyForms}), the one form both include ({@code PolicyFields/config.jelly}), the one set of
 * help files their descriptors redirect to, and the form's choices. The step and the wrapper keep
 * the @DataBoundSetters themselves, because Pipeline's named arguments bind to the step's own
 * properties ({@code withSchedPolicy(nice: 19)}).
 */
public final class PolicyFields implements Describable<PolicyFields>, Serializable {
    @Serial
    private static final long serialVersionUID = 1L;

    /** The form fields, each with its help file here. */
    static final List<String> NAMES = List.of("policy", "nice", "io", "cpuQuota", "cpuWeight", "cpuIdle", "cpus", "onUnsupported");

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

    /**
     * Makes {@code change} only when the fields it leaves are valid: a setter's bad value is rejected where it
     * was written and never stored, so the object keeps what it had (a stored bad value would fail every later
     * setter with the first one's message, and be saved with the job).
     */
    void set(final Consumer<PolicyFields> change) {
        PolicyFields candidate = copy();
        change.accept(candidate);
        candidate.validate();
        change.accept(this);
    }

    private PolicyFields copy() {
        PolicyFields c = new PolicyFields();
        c.policy = policy;
        c.nice = nice;
        c.io = io;
        c.cpuQuota = cpuQuota;
        c.cpuWeight = cpuWeight;
        c.cpuIdle = cpuIdle;
        c.cpus = cpus;
        c.onUnsupported = onUnsupported;
        return c;
    }

    /** Rejects the fields as they stand now. */
    void validate() {
        try {
            toCompact();
        } catch (InvalidPolicyException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    /** {@link #toCompact()}, or the engine's words on what is allowed as the build's one error line. */
    String compactOrAbort(final String stepName) throws AbortException {
        try {
            return toCompact();
        } catch (InvalidPolicyException e) {
            throw new AbortException(Messages.Console_stepFailed(stepName, e.getMessage()));
        }
    }

    static @CheckForNull String blankToNull(@CheckForNull final String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }

    /**
     * The submitted form with the three-way choices left unset where the author chose "inherit": a
     * blank value would bind to {@code false} (commons-beanutils' Boolean default) and override an
     * enclosing block's {@code cpu-idle}.
     */
    static JSONObject unsetBlankChoices(final JSONObject formData) {
        JSONObject copy = JSONObject.fromObject(formData);
        for (String choice : List.of("cpuIdle", "quick")) {
            if ("".equals(copy.optString(choice, null))) {
                copy.remove(choice);
            }
        }
        return copy;
    }

    static ListBoxModel onUnsupportedItems() {
        ListBoxModel m = new ListBoxModel();
        m.add(Messages.Form_onUnsupported_fail(), "");
        m.add(Messages.Form_onUnsupported_warn(), "warn");
        return m;
    }

    static ListBoxModel cpuIdleItems() {
        return threeWay(Messages.Form_cpuIdle_unset(), Messages.Form_cpuIdle_yes(), Messages.Form_cpuIdle_no());
    }

    /** A Boolean form choice that can stay unset: "" (see {@link #unsetBlankChoices}), "true", "false". */
    static ListBoxModel threeWay(final String unset, final String yes, final String no) {
        ListBoxModel m = new ListBoxModel();
        m.add(unset, "");
        m.add(yes, "true");
        m.add(no, "false");
        return m;
    }

    /** The engine's verdict on a compact policy, as a form message. */
    static FormValidation checkPolicy(final String value, final boolean blankAllowed) {
        if (value == null || value.isBlank()) {
            return blankAllowed ? FormValidation.ok() : FormValidation.error(Messages.Form_enterPolicy());
        }
        try {
            return FormValidation.ok(Messages.Form_means(PolicyForms.canonical(value)));
        } catch (InvalidPolicyException e) {
            return FormValidation.error(e.getMessage());
        }
    }

    /**
     * The form check of a cgroup parent: the engine's rule for its form, then whether it exists here. It
     * lives on the agents, so a directory missing on the controller is a warning; each block start checks
     * it on its agent.
     */
    static FormValidation checkCgroupParent(final String value) {
        try {
            return CgroupParents.parse(value)
                    .map(p -> Files.isDirectory(p) ? FormValidation.ok()
                            : FormValidation.warning(Messages.Form_cgroupParentMissing(p)))
                    .orElse(FormValidation.ok());
        } catch (IllegalArgumentException e) {
            return FormValidation.error(e.getMessage());
        }
    }

    /** Owns the shared help files; the step's and the wrapper's descriptors redirect their fields' help here. */
    @Extension
    public static final class DescriptorImpl extends Descriptor<PolicyFields> {
        @NonNull
        @Override
        public String getDisplayName() {
            return Messages.Form_policyFields();
        }
    }
}
