package dev.schedpolicy.jenkins;

import dev.schedpolicy.engine.agent.BlockRecord;
import dev.schedpolicy.engine.agent.BlockStart;
import edu.umd.cs.findbugs.annotations.CheckForNull;
import edu.umd.cs.findbugs.annotations.NonNull;
import hudson.AbortException;
import hudson.Extension;
import hudson.Launcher;
import hudson.model.AbstractBuild;
import hudson.model.AbstractProject;
import hudson.model.BuildListener;
import hudson.model.Node;
import hudson.remoting.VirtualChannel;
import hudson.tasks.BuildWrapper;
import hudson.tasks.BuildWrapperDescriptor;
import hudson.util.FormValidation;
import hudson.util.ListBoxModel;
import java.io.IOException;
import java.util.UUID;
import org.jenkinsci.Symbol;
import org.kohsuke.stapler.DataBoundConstructor;
import org.kohsuke.stapler.DataBoundSetter;
import org.kohsuke.stapler.QueryParameter;
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
        fields.policy = PolicyFields.blankToNull(policy);
        fields.validate();
    }

    public String getPolicy() {
        return fields.policy;
    }

    public Integer getNice() {
        return fields.nice;
    }

    @DataBoundSetter
    public void setNice(final Integer nice) {
        fields.nice = nice;
        fields.validate();
    }

    public String getIo() {
        return fields.io;
    }

    @DataBoundSetter
    public void setIo(final String io) {
        fields.io = PolicyFields.blankToNull(io);
        fields.validate();
    }

    public Integer getCpuQuota() {
        return fields.cpuQuota;
    }

    @DataBoundSetter
    public void setCpuQuota(final Integer cpuQuota) {
        fields.cpuQuota = cpuQuota;
        fields.validate();
    }

    public Integer getCpuWeight() {
        return fields.cpuWeight;
    }

    @DataBoundSetter
    public void setCpuWeight(final Integer cpuWeight) {
        fields.cpuWeight = cpuWeight;
        fields.validate();
    }

    public Boolean getCpuIdle() {
        return fields.cpuIdle;
    }

    @DataBoundSetter
    public void setCpuIdle(final Boolean cpuIdle) {
        fields.cpuIdle = cpuIdle;
        fields.validate();
    }

    public String getCpus() {
        return fields.cpus;
    }

    @DataBoundSetter
    public void setCpus(final String cpus) {
        fields.cpus = PolicyFields.blankToNull(cpus);
        fields.validate();
    }

    public String getOnUnsupported() {
        return fields.onUnsupported;
    }

    @DataBoundSetter
    public void setOnUnsupported(final String onUnsupported) {
        fields.onUnsupported = PolicyFields.blankToNull(onUnsupported);
        fields.validate();
    }

    @Override
    public Launcher decorateLauncher(final AbstractBuild build, final Launcher launcher, final BuildListener listener)
            throws IOException, InterruptedException {
        Node node = build.getBuiltOn();
        VirtualChannel channel = launcher.getChannel();
        if (node == null || channel == null) {
            throw new AbortException("[schedpolicy] the build's node is offline");
        }
        String requested = fields.toCompact();
        String blockKey = UUID.randomUUID().toString();
        BlockStart start = channel.call(new AgentCalls.StartBlock(blockKey, NodeDefaults.policyFor(node), null, requested,
                NodeDefaults.limits()));
        if (start.failure().isPresent()) {
            throw new AbortException("[schedpolicy] " + start.failure().get());
        }
        for (String w : start.warnings()) {
            listener.getLogger().println("[schedpolicy] warning: " + w);
        }
        listener.getLogger().println("[schedpolicy] this build's processes run under " + start.effective());
        String nodeName = node.getNodeName().isEmpty() ? "built-in" : node.getNodeName();
        SchedPolicyAction.of(build).addBlock(BlockRecord.started(KIND, nodeName, start));
        return new PolicedLauncher(launcher, new LaunchSettings(start.effective(), blockKey, build.getExternalizableId(),
                NodeDefaults.limits(), NodeDefaults.timeoutSeconds()));
    }

    /** The block stays open for the publishers; {@link BlockFinisher} ends it when the build has completed. */
    @Override
    public Environment setUp(final AbstractBuild build, final Launcher launcher, final BuildListener listener) {
        return new Environment() {
        };
    }

    /** The choices of the onUnsupported select, shared by the step's form. */
    static ListBoxModel onUnsupportedItems() {
        ListBoxModel m = new ListBoxModel();
        m.add("fail the build (default)", "");
        m.add("warn and run anyway", "warn");
        return m;
    }

    @Extension
    @Symbol("schedPolicy")
    public static class DescriptorImpl extends BuildWrapperDescriptor {
        @Override
        public boolean isApplicable(final AbstractProject<?, ?> item) {
            return true;
        }

        @NonNull
        @Override
        public String getDisplayName() {
            return "Run the build under a lowered CPU/IO scheduling policy";
        }

        @POST
        public FormValidation doCheckPolicy(@QueryParameter final String value) {
            return SchedPolicyNodeProperty.checkPolicy(value, true);
        }

        public ListBoxModel doFillOnUnsupportedItems() {
            return onUnsupportedItems();
        }
    }
}
