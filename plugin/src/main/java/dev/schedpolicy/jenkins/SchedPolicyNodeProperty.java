package dev.schedpolicy.jenkins;

import dev.schedpolicy.engine.agent.CgroupParents;
import dev.schedpolicy.engine.agent.GuardRules;
import dev.schedpolicy.engine.agent.GuardStageRule;
import edu.umd.cs.findbugs.annotations.CheckForNull;
import edu.umd.cs.findbugs.annotations.NonNull;
import hudson.Extension;
import hudson.model.Computer;
import hudson.model.Node;
import hudson.slaves.NodeProperty;
import hudson.slaves.NodePropertyDescriptor;
import hudson.util.FormValidation;
import jenkins.model.Jenkins;
import org.jenkinsci.Symbol;
import net.sf.json.JSONObject;
import org.kohsuke.stapler.AncestorInPath;
import org.kohsuke.stapler.DataBoundConstructor;
import org.kohsuke.stapler.DataBoundSetter;
import org.kohsuke.stapler.QueryParameter;
import org.kohsuke.stapler.StaplerRequest2;
import org.kohsuke.stapler.verb.POST;

/**
 * An agent-wide default policy: every process Jenkins launches on this node runs under it (through
 * {@link NodeDefaultLauncherDecorator}); {@code withSchedPolicy} blocks and the freestyle wrapper
 * merge on top of it, and its own rules of what runs guarded replace the global ones on this node. JCasC:
 * {@code nodeProperties: - schedPolicy: {policy: "idle+warn"}}.
 */
public class SchedPolicyNodeProperty extends NodeProperty<Node> {
    private final String policy;

    @DataBoundConstructor
    public SchedPolicyNodeProperty(final String policy) {
        this.policy = SchedPolicyConfiguration.canonical(policy);
    }

    private String cgroupParent;
    private boolean measure;
    /** This node's own stage rule, over the global one; null: the global one. */
    private String guardStages;
    /** This node's own whole-job rule, over the global one; null: the global one. */
    private String guardWholeJobs;

    public String getGuardStages() {
        return guardStages;
    }

    /**
     * Stages whose steps run guarded on this node, a regular expression found in the stage's name; it replaces the global
     * rule here, blank takes the global one. Only for the jobs the administrator lets guard ({@code guardJobs}).
     */
    @DataBoundSetter
    public void setGuardStages(final String value) {
        this.guardStages = GuardStageRule.check(value);
    }

    public String getGuardWholeJobs() {
        return guardWholeJobs;
    }

    /** Jobs whose every step on this node runs guarded, the same way: over the global rule, blank takes it. */
    @DataBoundSetter
    public void setGuardWholeJobs(final String value) {
        this.guardWholeJobs = GuardRules.checkWholeJobs(value);
    }

    /** Whether every launch on this node is measured (CPU, run-queue wait, neighbours); the global switch also turns it on. */
    public boolean isMeasure() {
        return measure;
    }

    @DataBoundSetter
    public void setMeasure(final boolean value) {
        this.measure = value;
    }

    public String getPolicy() {
        return policy;
    }

    public String getCgroupParent() {
        return cgroupParent;
    }

    /** The cgroup parent for launches on this node, overriding the global one; blank for the global one. */
    @DataBoundSetter
    public void setCgroupParent(final String value) {
        this.cgroupParent = CgroupParents.parse(value).map(Object::toString).orElse(null);
    }

    @Extension
    @Symbol("schedPolicy")
    public static class DescriptorImpl extends NodePropertyDescriptor {
        public DescriptorImpl() {
            addHelpFileRedirect("cgroupParent", SchedPolicyConfiguration.class, "cgroupParent");
        }

        @NonNull
        @Override
        public String getDisplayName() {
            return Messages.Form_nodeProperty();
        }

        /** The global default lives in {@link SchedPolicyConfiguration}, next to the limits. */
        @Override
        public boolean isApplicableAsGlobal() {
            return false;
        }

        /** Node configuration needs Computer.CONFIGURE (Computer.CREATE on the new-node page), not ADMINISTER. */
        @POST
        public FormValidation doCheckPolicy(@AncestorInPath @CheckForNull final Computer computer, @QueryParameter final String value) {
            checkConfigure(computer);
            return PolicyFields.checkPolicy(value, false);
        }

        @POST
        public FormValidation doCheckCgroupParent(@AncestorInPath @CheckForNull final Computer computer,
                @QueryParameter final String value) {
            checkConfigure(computer);
            return PolicyFields.checkCgroupParent(value);
        }

        @POST
        public FormValidation doCheckGuardStages(@AncestorInPath @CheckForNull final Computer computer,
                @QueryParameter final String value) {
            checkConfigure(computer);
            return SchedPolicyConfiguration.checkPattern(() -> GuardStageRule.check(value));
        }

        @POST
        public FormValidation doCheckGuardWholeJobs(@AncestorInPath @CheckForNull final Computer computer,
                @QueryParameter final String value) {
            checkConfigure(computer);
            return SchedPolicyConfiguration.checkPattern(() -> GuardRules.checkWholeJobs(value));
        }

        private static void checkConfigure(@CheckForNull final Computer computer) {
            if (computer != null) {
                computer.checkPermission(Computer.CONFIGURE);
            } else {
                Jenkins.get().checkPermission(Computer.CREATE);
            }
        }

        /** A blank or invalid policy is a form error on the field, not a stack trace from the constructor. */
        @Override
        public NodeProperty<?> newInstance(@CheckForNull final StaplerRequest2 req, @NonNull final JSONObject formData)
                throws FormException {
            String policy = formData.optString("policy", "");
            FormValidation check = PolicyFields.checkPolicy(policy, false);
            if (check.kind == FormValidation.Kind.ERROR) {
                throw new FormException(check.getMessage(), "policy");
            }
            try {
                CgroupParents.parse(formData.optString("cgroupParent", ""));
            } catch (IllegalArgumentException e) {
                throw new FormException(e.getMessage(), "cgroupParent");
            }
            try {
                GuardStageRule.check(formData.optString("guardStages", ""));
            } catch (IllegalArgumentException e) {
                throw new FormException(e.getMessage(), "guardStages");
            }
            try {
                GuardRules.checkWholeJobs(formData.optString("guardWholeJobs", ""));
            } catch (IllegalArgumentException e) {
                throw new FormException(e.getMessage(), "guardWholeJobs");
            }
            return super.newInstance(req, formData);
        }
    }
}
