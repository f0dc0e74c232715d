package dev.schedpolicy.jenkins;

import dev.schedpolicy.engine.agent.PolicyForms;
import dev.schedpolicy.engine.policy.InvalidPolicyException;
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
import org.kohsuke.stapler.QueryParameter;
import org.kohsuke.stapler.StaplerRequest2;
import org.kohsuke.stapler.verb.POST;

/**
 * An agent-wide default policy: every process Jenkins launches on this node runs under it (through
 * {@link NodeDefaultLauncherDecorator}); {@code withSchedPolicy} blocks and the freestyle wrapper
 * merge on top of it. JCasC: {@code nodeProperties: - schedPolicy: {policy: "idle+warn"}}.
 */
public class SchedPolicyNodeProperty extends NodeProperty<Node> {
    private final String policy;

    @DataBoundConstructor
    public SchedPolicyNodeProperty(final String policy) {
        this.policy = SchedPolicyConfiguration.canonical(policy);
    }

    public String getPolicy() {
        return policy;
    }

    static FormValidation checkPolicy(final String value, final boolean blankAllowed) {
        if (value == null || value.isBlank()) {
            return blankAllowed ? FormValidation.ok() : FormValidation.error("Enter a policy, e.g. idle, batch+nice19 or nice10+io-idle+quota50");
        }
        try {
            return FormValidation.ok("Means: " + PolicyForms.canonical(value));
        } catch (InvalidPolicyException e) {
            return FormValidation.error(e.getMessage());
        }
    }

    @Extension
    @Symbol("schedPolicy")
    public static class DescriptorImpl extends NodePropertyDescriptor {
        @NonNull
        @Override
        public String getDisplayName() {
            return "Run builds under a Sched Policy";
        }

        /** The global default lives in {@link SchedPolicyConfiguration}, next to the limits. */
        @Override
        public boolean isApplicableAsGlobal() {
            return false;
        }

        /** Node configuration needs Computer.CONFIGURE (Computer.CREATE on the new-node page), not ADMINISTER. */
        @POST
        public FormValidation doCheckPolicy(@AncestorInPath @CheckForNull final Computer computer, @QueryParameter final String value) {
            if (computer != null) {
                computer.checkPermission(Computer.CONFIGURE);
            } else {
                Jenkins.get().checkPermission(Computer.CREATE);
            }
            return checkPolicy(value, false);
        }

        /** A blank or invalid policy is a form error on the field, not a stack trace from the constructor. */
        @Override
        public NodeProperty<?> newInstance(@CheckForNull final StaplerRequest2 req, @NonNull final JSONObject formData)
                throws FormException {
            String policy = formData.optString("policy", "");
            FormValidation check = checkPolicy(policy, false);
            if (check.kind == FormValidation.Kind.ERROR) {
                throw new FormException(check.getMessage(), "policy");
            }
            return super.newInstance(req, formData);
        }
    }
}
