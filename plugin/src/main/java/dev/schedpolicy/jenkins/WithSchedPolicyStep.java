package dev.schedpolicy.jenkins;

import dev.schedpolicy.engine.agent.BlockRecord;
import dev.schedpolicy.engine.agent.ContainerLaunches;
import dev.schedpolicy.engine.agent.PolicyForms;
import dev.schedpolicy.engine.agent.UsageRecord;
import edu.umd.cs.findbugs.annotations.CheckForNull;
import edu.umd.cs.findbugs.annotations.NonNull;
import hudson.AbortException;
import hudson.Extension;
import hudson.LauncherDecorator;
import hudson.model.Computer;
import hudson.model.Node;
import hudson.model.Result;
import hudson.model.Run;
import hudson.model.TaskListener;
import hudson.remoting.VirtualChannel;
import hudson.util.FormValidation;
import hudson.util.ListBoxModel;
import java.io.IOException;
import java.io.Serial;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import jenkins.model.Jenkins;
import net.sf.json.JSONObject;
import org.jenkinsci.plugins.workflow.steps.BodyInvoker;
import org.jenkinsci.plugins.workflow.steps.FlowInterruptedException;
import org.jenkinsci.plugins.workflow.steps.GeneralNonBlockingStepExecution;
import org.jenkinsci.plugins.workflow.steps.Step;
import org.jenkinsci.plugins.workflow.steps.StepContext;
import org.jenkinsci.plugins.workflow.steps.StepDescriptor;
import org.jenkinsci.plugins.workflow.steps.StepExecution;
import org.kohsuke.stapler.DataBoundConstructor;
import org.kohsuke.stapler.DataBoundSetter;
import org.kohsuke.stapler.QueryParameter;
import org.kohsuke.stapler.StaplerRequest2;
import org.kohsuke.stapler.verb.POST;

/**
 * {@code withSchedPolicy('idle') { sh 'make' }}: every process the body launches on this node runs
 * under the policy, applied by the engine on the agent and verified from /proc. A single-parameter
 * {@link DataBoundConstructor} makes the positional form work; the other options are setters.
 * Nested blocks merge, the inner one winning per field; the node's default policy stays a floor.
 */
public class WithSchedPolicyStep extends Step {
    static final String KIND = "withSchedPolicy";

    private final PolicyFields fields = new PolicyFields();

    @DataBoundConstructor
    public WithSchedPolicyStep(@CheckForNull final String policy) {
        fields.policy = PolicyFields.blankToNull(policy);
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
    }

    public String getIo() {
        return fields.io;
    }

    /** {@code idle} or {@code be:N} (N 0..7; 7 is the lowest best-effort level). */
    @DataBoundSetter
    public void setIo(final String io) {
        fields.io = PolicyFields.blankToNull(io);
    }

    public Integer getCpuQuota() {
        return fields.cpuQuota;
    }

    /** Percent of one CPU (cgroup cpu.max / cfs_quota_us), e.g. 50 or 150. */
    @DataBoundSetter
    public void setCpuQuota(final Integer cpuQuota) {
        fields.cpuQuota = cpuQuota;
    }

    public Integer getCpuWeight() {
        return fields.cpuWeight;
    }

    @DataBoundSetter
    public void setCpuWeight(final Integer cpuWeight) {
        fields.cpuWeight = cpuWeight;
    }

    public Boolean getCpuIdle() {
        return fields.cpuIdle;
    }

    @DataBoundSetter
    public void setCpuIdle(final Boolean cpuIdle) {
        fields.cpuIdle = cpuIdle;
    }

    public String getCpus() {
        return fields.cpus;
    }

    /** CPU list as in {@code taskset -c}, e.g. {@code 0-1} or {@code 0,2}. */
    @DataBoundSetter
    public void setCpus(final String cpus) {
        fields.cpus = PolicyFields.blankToNull(cpus);
    }

    public String getOnUnsupported() {
        return fields.onUnsupported;
    }

    /** {@code fail} (default) or {@code warn}. */
    @DataBoundSetter
    public void setOnUnsupported(final String onUnsupported) {
        fields.onUnsupported = PolicyFields.blankToNull(onUnsupported);
    }

    /** The requested policy in compact form, e.g. "batch+nice19+io-idle". */
    String requested() {
        return fields.toCompact();
    }

    /**
     * Bad options are rejected here rather than in the constructor or a setter: Pipeline reports an
     * exception thrown while it binds the arguments with three nested stack traces, and an
     * {@link AbortException} from here as one ERROR line.
     */
    @Override
    public StepExecution start(final StepContext context) throws AbortException {
        return new Execution(context, fields.compactOrAbort(KIND));
    }

    /**
     * Probes on the agent (a remoting call, so off the CPS VM thread: GeneralNonBlockingStepExecution),
     * then runs the body with the merged decorator; at the end reads the block's cgroup usage.
     */
    static final class Execution extends GeneralNonBlockingStepExecution {
        @Serial
        private static final long serialVersionUID = 1L;
        private final String requested;
        private String blockKey;

        Execution(final StepContext context, final String requested) {
            super(context);
            this.requested = requested;
        }

        @Override
        public boolean start() {
            run(this::startBlock);
            return false;
        }

        private void startBlock() throws Exception {
            StepContext context = getContext();
            SchedPolicyBlock enclosing = context.get(SchedPolicyBlock.class);
            Node node = context.get(Node.class);
            String nodeName = NodeDefaults.nameOf(node);
            // before the block starts on the agent: a refused block leaves nothing to end
            Optional<String> inside = ContainerLaunches.blockInside(LauncherChain.classesOf(context.get(LauncherDecorator.class), node));
            if (inside.isPresent()) {
                throw new AbortException(Messages.Console_stepFailed(KIND, inside.get()));
            }
            LaunchSettings settings;
            try {
                settings = BlockStarter.start(KIND, context.get(Run.class), node, channel(context),
                        enclosing == null ? null : enclosing.enclosingOn(nodeName), requested, context.get(TaskListener.class));
            } catch (InterruptedException e) {
                // aborted while the agent probed the block (a slow launch handshake): the bare InterruptedException
                // reached the console as a stack trace; an abort is one line and the ABORTED result
                context.get(TaskListener.class).getLogger().println(Messages.Console_abortedWhileProbing(KIND));
                throw new FlowInterruptedException(Result.ABORTED, true);
            }
            blockKey = settings.blockKey();
            String authored = PolicyForms.merge(enclosing == null ? null : enclosing.authoredLayers(), requested).toCompact();
            BodyInvoker invoker;
            try {
                invoker = context.newBodyInvoker();
            } catch (IllegalStateException e) {
                // stopped after the probe answered and before the body began: the stop already ended the step (ABORTED,
                // "Aborted by" in the console), and the block has no launch yet; without this, a stack trace
                return;
            }
            invoker
                    .withContexts(BodyInvoker.mergeLauncherDecorators(context.get(LauncherDecorator.class),
                            new SchedPolicyDecorator(settings, authored)), new SchedPolicyBlock(settings.policy(), authored, nodeName))
                    .withCallback(new Finish(blockKey))
                    .start();
        }

        private final class Finish extends TailCall {
            @Serial
            private static final long serialVersionUID = 1L;
            private final String key;

            Finish(final String key) {
                this.key = key;
            }

            @Override
            protected void finished(final StepContext context) throws Exception {
                Run<?, ?> run = context.get(Run.class);
                SchedPolicyAction action = SchedPolicyAction.of(run);
                BlockRecord record = action.block(key);
                String own = NodeDefaults.nameOf(context.get(Node.class));
                // the recorded groups go to the block's node only when every launch ran there (the record does not
                // say which node each group is on); they end the groups an earlier connection or JVM made
                List<String> recorded = record == null || !record.launchNodes().stream().allMatch(own::equals)
                        ? List.of() : record.cgroupPaths();
                UsageRecord usage = channel(context).call(new AgentCalls.FinishBlock(key, recorded));
                // launches of a node {} nested in the block ran on other agents, whose registries hold their groups
                for (String other : record == null ? List.<String>of() : record.launchNodes()) {
                    if (!other.equals(own)) {
                        usage = usage.plus(finishOn(other, key, context.get(TaskListener.class)));
                    }
                }
                action.finishBlock(key, usage);
                if (usage.groups() > 0) {
                    context.get(TaskListener.class).getLogger().println(Messages.Console_blockUsage(usage.describe()));
                }
            }
        }

        private static UsageRecord finishOn(final String nodeName, final String key, final TaskListener listener) throws InterruptedException {
            Node node = nodeName.isEmpty() ? Jenkins.get() : Jenkins.get().getNode(nodeName);
            Computer computer = node == null ? null : node.toComputer();
            VirtualChannel channel = computer == null ? null : computer.getChannel();
            try {
                if (channel != null) {
                    return channel.call(new AgentCalls.FinishBlock(key, List.of()));
                }
            } catch (IOException | RuntimeException e) {
                listener.getLogger().println(Messages.Console_cannotEndBlock(nodeName, e.getMessage()));
                return UsageRecord.NONE;
            }
            listener.getLogger().println(Messages.Console_nodeOfflineAtEnd(nodeName));
            return UsageRecord.NONE;
        }

        private static VirtualChannel channel(final StepContext context) throws Exception {
            Computer computer = context.get(Computer.class);
            VirtualChannel channel = computer == null ? null : computer.getChannel();
            if (channel == null) {
                throw new AbortException(Messages.Console_blockNodeOffline());
            }
            return channel;
        }
    }

    @Extension
    public static class DescriptorImpl extends StepDescriptor {
        public DescriptorImpl() {
            PolicyFields.NAMES.forEach(f -> addHelpFileRedirect(f, PolicyFields.class, f));
        }

        @Override
        public Step newInstance(@CheckForNull final StaplerRequest2 req, @NonNull final JSONObject formData) throws FormException {
            return super.newInstance(req, PolicyFields.unsetBlankChoices(formData));
        }

        @POST
        public FormValidation doCheckPolicy(@QueryParameter final String value) {
            return PolicyFields.checkPolicy(value, true);
        }

        public ListBoxModel doFillCpuIdleItems() {
            return PolicyFields.cpuIdleItems();
        }
        @Override
        public String getFunctionName() {
            return "withSchedPolicy";
        }

        @NonNull
        @Override
        public String getDisplayName() {
            return Messages.Step_withSchedPolicy();
        }

        @Override
        public boolean takesImplicitBlockArgument() {
            return true;
        }

        @Override
        public Set<? extends Class<?>> getRequiredContext() {
            return Set.of(Run.class, TaskListener.class, Node.class, Computer.class);
        }

        @Override
        public Set<? extends Class<?>> getProvidedContext() {
            return Set.of(LauncherDecorator.class, SchedPolicyBlock.class);
        }

        public ListBoxModel doFillOnUnsupportedItems() {
            return PolicyFields.onUnsupportedItems();
        }

        /** Shown in the Pipeline graph: the requested policy in compact form. */
        @Override
        public String argumentsToString(@NonNull final Map<String, Object> namedArgs) {
            try {
                WithSchedPolicyStep s = (WithSchedPolicyStep) newInstance(namedArgs);
                return s.requested();
            } catch (Exception e) {
                return null;
            }
        }
    }
}
