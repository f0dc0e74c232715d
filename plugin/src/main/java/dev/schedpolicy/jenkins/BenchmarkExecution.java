package dev.schedpolicy.jenkins;

import dev.schedpolicy.engine.agent.AgentBenchmark;
import dev.schedpolicy.engine.buildpage.BenchmarkGate;
import dev.schedpolicy.engine.buildpage.BenchmarkSummary;
import edu.umd.cs.findbugs.annotations.CheckForNull;
import edu.umd.cs.findbugs.annotations.NonNull;
import hudson.AbortException;
import hudson.FilePath;
import hudson.model.Computer;
import hudson.model.Node;
import hudson.model.Result;
import hudson.model.Run;
import hudson.model.TaskListener;
import hudson.remoting.VirtualChannel;
import java.io.File;
import java.io.IOException;
import java.io.Serial;
import java.util.ArrayList;
import java.util.List;
import org.jenkinsci.plugins.workflow.steps.StepContext;
import org.jenkinsci.plugins.workflow.steps.SynchronousNonBlockingStepExecution;

/**
 * {@link BenchmarkStep}'s execution: the engine runs the benchmark on the agent, the result is stored
 * as a {@link BenchmarkBuildAction} and the gate applied; an aborted build cancels the run on the agent.
 */
final class BenchmarkExecution extends SynchronousNonBlockingStepExecution<Void> {
    @Serial
    private static final long serialVersionUID = 1L;
    private final transient BenchmarkStep step;
    private transient volatile String runKey;
    private transient volatile VirtualChannel channel;
    private transient volatile Throwable abortedBy;

    BenchmarkExecution(final StepContext context, final BenchmarkStep step) {
        super(context);
        this.step = step;
    }

    /**
     * An aborted build stops the benchmark on the agent too, not only the thread waiting for it here.
     * When the agent cancelled it, {@link #run()} ends the step with {@code cause} itself once the
     * partial report is stored: interrupting that thread (the default stop) would break the report's
     * file write with a ClosedByInterruptException.
     */
    @Override
    public void stop(@NonNull final Throwable cause) throws Exception {
        String key = runKey;
        VirtualChannel c = channel;
        if (key != null && c != null) {
            abortedBy = cause;
            try {
                if (Boolean.TRUE.equals(c.call(new AgentCalls.CancelBenchmark(key, "the build was aborted: " + cause)))) {
                    return;
                }
            } catch (IOException | RuntimeException e) {
                // the agent is gone, and the benchmark with it
            }
        }
        super.stop(cause);
    }

    @Override
    protected Void run() throws Exception {
        StepContext context = getContext();
        Run<?, ?> run = context.get(Run.class);
        TaskListener listener = context.get(TaskListener.class);
        Node node = context.get(Node.class);
        Computer computer = context.get(Computer.class);
        VirtualChannel channel = computer == null ? null : computer.getChannel();
        if (node == null || channel == null) {
            throw new AbortException(Messages.Console_benchmarkNeedsOnlineNode());
        }
        BenchmarkStep.checkPermission(run.getParent());
        String classpath = workloadClasspath(node, channel);
        runKey = run.getExternalizableId() + "#" + java.util.UUID.randomUUID();
        this.channel = channel;
        String json;
        try {
            json = channel.call(new AgentCalls.RunBenchmark(runKey, step.request(classpath), NodeDefaults.limits(),
                    NodeDefaults.policyFor(node), SchedPolicyConfiguration.get().toBenchmarkCaps(), listener));
        } catch (IllegalArgumentException e) {
            // the engine's refusals (a cap, a policy not allowed here) say what is allowed in one line
            throw new AbortException(Messages.Console_line(e.getMessage()));
        }
        Throwable aborted = abortedBy;
        if (aborted != null) {
            BenchmarkBuildAction.addTo(run, new BenchmarkResult(json, "", node.getNodeName(), step.gate().topology()));
            listener.getLogger().println(Messages.Console_benchmarkStopped());
            throw aborted instanceof Exception e ? e : new AbortException(Messages.Console_buildAborted(aborted));
        }
        BenchmarkGate gate = step.gate();
        BenchmarkSummary summary = BenchmarkSummary.fromJson(json);
        BenchmarkGate.Verdict verdict = gate.evaluate(summary);
        BenchmarkBuildAction.addTo(run, new BenchmarkResult(json, gate.enabled() ? verdict.message() : "", node.getNodeName(),
                gate.topology()));
        if (summary.partial()) {
            listener.getLogger().println(Messages.Console_benchmarkPartial(summary.partialReason()));
        }
        switch (verdict.outcome()) {
            case FAILURE -> throw new AbortException(Messages.Console_benchmarkGate(verdict.message()));
            case UNSTABLE -> {
                listener.getLogger().println(Messages.Console_benchmarkGate(verdict.message()));
                run.setResult(Result.UNSTABLE);
            }
            default -> {
                if (gate.enabled()) {
                    listener.getLogger().println(Messages.Console_benchmarkGatePassed(verdict.message()));
                }
            }
        }
        return null;
    }

    /**
     * Built-in workloads run in separate JVMs on the agent and need the engine's classes on disk there;
     * on an agent they were loaded through remoting, so the jars are copied into the agent's cache.
     */
    @CheckForNull
    private static String workloadClasspath(final Node node, final VirtualChannel channel) throws Exception {
        if (channel == FilePath.localChannel) {
            return null; // the engine's default: its own code source
        }
        FilePath root = node.getRootPath();
        if (root == null) {
            return null;
        }
        FilePath cache = root.child("caches").child("schedpolicy");
        cache.mkdirs();
        List<String> entries = new ArrayList<>();
        for (File source : AgentBenchmark.workloadJars()) {
            if (source.isDirectory()) {
                entries.add(source.getAbsolutePath()); // tests: classes directory on this same machine
            } else {
                FilePath target = cache.child(source.getName());
                if (!target.exists() || target.length() != source.length()) {
                    target.copyFrom(new FilePath(source));
                }
                entries.add(target.getRemote());
            }
        }
        return String.join(":", entries);
    }
}
