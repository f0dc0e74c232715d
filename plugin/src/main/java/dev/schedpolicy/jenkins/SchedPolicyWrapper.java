package dev.schedpolicy.jenkins;

import edu.umd.cs.findbugs.annotations.CheckForNull;
import edu.umd.cs.findbugs.annotations.NonNull;
import hudson.AbortException;
import hudson.Extension;
import hudson.Launcher;
import hudson.model.AbstractBuild;
import hudson.model.AbstractProject;
import hudson.model.BuildListener;
import hudson.remoting.VirtualChannel;
import hudson.tasks.BuildWrapper;
import hudson.tasks.BuildWrapperDescriptor;
import hudson.util.FormValidation;
import hudson.util.ListBoxModel;
import java.io.IOException;
import net.sf.json.JSONObject;
import org.jenkinsci.Symbol;
import org.kohsuke.stapler.DataBoundConstructor;
import org.kohsuke.stapler.DataBoundSetter;
import org.kohsuke.stapler.QueryParameter;
import org.kohsuke.stapler.StaplerRequest2;
import org.kohsuke.stapler.verb.POST;

/**
 * Freestyle: the whole build's processes run under the policy. The {@code wrap} Pipeline meta-step
 * never decorates launchers, so Pipeline uses {@link WithSchedPolicyStep} instead; this wrapper uses
 * {@link BuildWrapper#decorateLauncher}, which core calls before {@link #setUp}.
 */
public class SchedPolicyWrapper extends BuildWrapper {
    static final String KIND = "wrapper";

    private final PolicyFields fields = new PolicyFields();

    @DataBoundConstructor
    public SchedPolicyWrapper(@CheckForNull final String policy) {
        fields.set(f -> f.policy = PolicyFields.blankToNull(policy));
    }

    public String getPolicy() {
        return fields.policy;
    }

    public Integer getNice() {
        return fields.nice;
    }

    @DataBoundSetter
    public void setNice(final Integer nice) {
        fields.set(f -> f.nice = nice);
    }

    public String getIo() {
        return fields.io;
    }

    @DataBoundSetter
    public void setIo(final String io) {
        fields.set(f -> f.io = PolicyFields.blankToNull(io));
    }

    public Integer getCpuQuota() {
        return fields.cpuQuota;
    }

    @DataBoundSetter
    public void setCpuQuota(final Integer cpuQuota) {
        fields.set(f -> f.cpuQuota = cpuQuota);
    }

    public Integer getCpuWeight() {
        return fields.cpuWeight;
    }

    @DataBoundSetter
    public void setCpuWeight(final Integer cpuWeight) {
        fields.set(f -> f.cpuWeight = cpuWeight);
    }

    public Boolean getCpuIdle() {
        return fields.cpuIdle;
    }

    @DataBoundSetter
    public void setCpuIdle(final Boolean cpuIdle) {
        fields.set(f -> f.cpuIdle = cpuIdle);
    }

    public String getCpus() {
        return fields.cpus;
    }

    @DataBoundSetter
    public void setCpus(final String cpus) {
        fields.set(f -> f.cpus = PolicyFields.blankToNull(cpus));
    }

    public String getOnUnsupported() {
        return fields.onUnsupported;
    }

    @DataBoundSetter
    public void setOnUnsupported(final String onUnsupported) {
        fields.set(f -> f.onUnsupported = PolicyFields.blankToNull(onUnsupported));
    }

    @Override
    public Launcher decorateLauncher(final AbstractBuild build, final Launcher launcher, final BuildListener listener)
            throws IOException, InterruptedException {
        VirtualChannel channel = launcher.getChannel();
        if (channel == null) {
            throw new AbortException(Messages.Console_buildNodeOffline());
        }
        LaunchSettings settings = BlockStarter.start(KIND, build, build.getBuiltOn(), channel, null, fields.toCompact(), listener);
        return PolicedLauncher.around(launcher, settings.authored(fields.toCompact()));
    }

    /** The block stays open for the publishers; {@link BlockFinisher} ends it when the build has completed. */
    @Override
    public Environment setUp(final AbstractBuild build, final Launcher launcher, final BuildListener listener) {
        return new Environment() {
        };
    }

    @Extension
    @Symbol("schedPolicy")
    public static class DescriptorImpl extends BuildWrapperDescriptor {
        public DescriptorImpl() {
            PolicyFields.NAMES.forEach(f -> addHelpFileRedirect(f, PolicyFields.class, f));
        }

        @Override
        public BuildWrapper newInstance(@CheckForNull final StaplerRequest2 req, @NonNull final JSONObject formData)
                throws FormException {
            return super.newInstance(req, PolicyFields.unsetBlankChoices(formData));
        }

        @Override
        public boolean isApplicable(final AbstractProject<?, ?> item) {
            return true;
        }

        @NonNull
        @Override
        public String getDisplayName() {
            return Messages.Form_wrapper();
        }

        @POST
        public FormValidation doCheckPolicy(@QueryParameter final String value) {
            return PolicyFields.checkPolicy(value, true);
        }

        public ListBoxModel doFillOnUnsupportedItems() {
            return PolicyFields.onUnsupportedItems();
        }

        public ListBoxModel doFillCpuIdleItems() {
            return PolicyFields.cpuIdleItems();
        }
    }
}
