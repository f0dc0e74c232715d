package dev.schedpolicy.jenkins;

import dev.schedpolicy.engine.agent.AgentBenchmark;
import dev.schedpolicy.engine.agent.AgentLimits;
import dev.schedpolicy.engine.agent.BenchmarkGate;
import dev.schedpolicy.engine.agent.BenchmarkSummary;
import dev.schedpolicy.engine.bench.BenchListener;
import dev.schedpolicy.engine.bench.Benchmark;
import edu.umd.cs.findbugs.annotations.CheckForNull;
import edu.umd.cs.findbugs.annotations.NonNull;
import hudson.AbortException;
import hudson.Extension;
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
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import jenkins.security.MasterToSlaveCallable;
import org.HdrHistogram.Histogram;
import org.kohsuke.stapler.DataBoundConstructor;
import org.kohsuke.stapler.DataBoundSetter;
import org.jenkinsci.plugins.workflow.steps.Step;
import org.jenkinsci.plugins.workflow.steps.StepContext;
import org.jenkinsci.plugins.workflow.steps.StepDescriptor;
import org.jenkinsci.plugins.workflow.steps.StepExecution;
import org.jenkinsci.plugins.workflow.steps.SynchronousNonBlockingStepExecution;

/**
 * {@code schedBenchmark(scenario: 'seed-cpu-looper', quick: true, gatePolicy: 'idle', unstableBelow: 80)}:
 * runs the engine's benchmark on the agent ({@link AgentBenchmark}, progress streamed to the build
 * log), stores report.json as a {@link BenchmarkBuildAction}, and applies the optional gate.
 */
public class BenchmarkStep extends Step {
    private String scenario = "seed-cpu-looper";
    private Boolean quick;
    private String policies;
    private String loads;
    private Integer repetitions;
    private String victim;
    private String background;
    private String gatePolicy = "idle";
    private double unstableBelow;
    private double failBelow;

    @DataBoundConstructor
    public BenchmarkStep(@CheckForNull final String scenario) {
        if (scenario != null && !scenario.isBlank()) {
            this.scenario = scenario.trim();
        }
    }

    public String getScenario() {
        return scenario;
    }

    public Boolean getQuick() {
        return quick;
    }

    /**
     * true: the scenario's quick preset; false: its full matrix; unset: the CLI's rule (quick unless
     * policies, loads or repetitions are given), decided by the engine.
     */
    @DataBoundSetter
    public void setQuick(final Boolean quick) {
        this.quick = quick;
    }

    public String getPolicies() {
        return policies;
    }

    /** Comma-separated benchmark policies, e.g. {@code default,nice19,idle,quota50}. */
    @DataBoundSetter
    public void setPolicies(final String policies) {
        this.policies = PolicyFields.blankToNull(policies);
        request(null);
    }

    public String getLoads() {
        return loads;
    }

    /** Comma-separated loads as multiples of the CPU count, e.g. {@code 1,2,4}. */
    @DataBoundSetter
    public void setLoads(final String loads) {
        this.loads = PolicyFields.blankToNull(loads);
        request(null);
    }

    public Integer getRepetitions() {
        return repetitions;
    }

    @DataBoundSetter
    public void setRepetitions(final Integer repetitions) {
        this.repetitions = repetitions;
        request(null);
    }

    public String getVictim() {
        return victim;
    }

    /** The test job as a shell command (fixed work), e.g. {@code ./mvnw -q test}. */
    @DataBoundSetter
    public void setVictim(final String victim) {
        this.victim = PolicyFields.blankToNull(victim);
    }

    public String getBackground() {
        return background;
    }

    /** The background as a shell command, one copy per load unit, e.g. {@code make -j4}. */
    @DataBoundSetter
    public void setBackground(final String background) {
        this.background = PolicyFields.blankToNull(background);
    }

    public String getGatePolicy() {
        return gatePolicy;
    }

    @DataBoundSetter
    public void setGatePolicy(final String gatePolicy) {
        this.gatePolicy = PolicyFields.blankToNull(gatePolicy) == null ? "idle" : gatePolicy.trim();
        gate();
    }

    public double getUnstableBelow() {
        return unstableBelow;
    }

    /** The build becomes unstable when the test job keeps less than this % under {@link #getGatePolicy()}; 0 = off. */
    @DataBoundSetter
    public void setUnstableBelow(final double unstableBelow) {
        this.unstableBelow = unstableBelow;
        gate();
    }

    public double getFailBelow() {
        return failBelow;
    }

    /** The step fails when the test job keeps less than this %; 0 = off. */
    @DataBoundSetter
    public void setFailBelow(final double failBelow) {
        this.failBelow = failBelow;
        gate();
    }

    BenchmarkGate gate() {
        return new BenchmarkGate(gatePolicy, unstableBelow, failBelow);
    }

    /** The engine's request, which checks loads, repetitions and policies as the CLI does. */
    AgentBenchmark.Request request(@CheckForNull final String workloadClasspath) {
        return new AgentBenchmark.Request(scenario, quick, policies, loads, repetitions, victim, background, workloadClasspath);
    }

    @Override
    public StepExecution start(final StepContext context) {
        return new Execution(context, this);
    }

    static final class Execution extends SynchronousNonBlockingStepExecution<Void> {
        @Serial
        private static final long serialVersionUID = 1L;
        private final transient BenchmarkStep step;
        private transient volatile String runKey;
        private transient volatile VirtualChannel channel;

        Execution(final StepContext context, final BenchmarkStep step) {
            super(context);
            this.step = step;
        }

        /** An aborted build stops the benchmark on the agent too, not only the thread waiting for it here. */
        @Override
        public void stop(@NonNull final Throwable cause) throws Exception {
            String key = runKey;
            VirtualChannel c = channel;
            if (key != null && c != null) {
                try {
                    c.call(new CancelBenchmark(key, "the build was aborted: " + cause));
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
                throw new AbortException("[schedpolicy] schedBenchmark needs an online node");
            }
            String classpath = workloadClasspath(node, channel);
            runKey = run.getExternalizableId() + "#" + java.util.UUID.randomUUID();
            this.channel = channel;
            String json = channel.call(new RunBenchmark(runKey, step.request(classpath), NodeDefaults.limits(), listener));
            BenchmarkGate gate = step.gate();
            BenchmarkSummary summary = BenchmarkSummary.fromJson(json);
            BenchmarkGate.Verdict verdict = gate.evaluate(summary);
            run.addAction(new BenchmarkBuildAction(run, new BenchmarkResult(json, gate.enabled() ? verdict.message() : "")));
            if (summary.partial()) {
                listener.getLogger().println("[schedpolicy] the benchmark result is partial: " + summary.partialReason());
            }
            switch (verdict.outcome()) {
                case FAILURE -> throw new AbortException("[schedpolicy] benchmark gate: " + verdict.message());
                case UNSTABLE -> {
                    listener.getLogger().println("[schedpolicy] benchmark gate: " + verdict.message());
                    run.setResult(Result.UNSTABLE);
                }
                default -> {
                    if (gate.enabled()) {
                        listener.getLogger().println("[schedpolicy] benchmark gate passed: " + verdict.message());
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
            for (Class<?> c : List.of(Benchmark.class, Histogram.class)) {
                File source = codeSource(c);
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

        private static File codeSource(final Class<?> c) throws URISyntaxException {
            return new File(c.getProtectionDomain().getCodeSource().getLocation().toURI());
        }
    }

    /** On the agent: the engine runs the request under the administrator's limits, streaming progress to the log. */
    static final class RunBenchmark extends MasterToSlaveCallable<String, RuntimeException> {
        @Serial
        private static final long serialVersionUID = 1L;
        private final String runKey;
        private final AgentBenchmark.Request request;
        private final AgentLimits limits;
        private final TaskListener listener;

        RunBenchmark(final String runKey, final AgentBenchmark.Request request, final AgentLimits limits, final TaskListener listener) {
            this.runKey = runKey;
            this.request = request;
            this.limits = limits;
            this.listener = listener;
        }

        @Override
        public String call() {
            return AgentBenchmark.run(runKey, request, limits, new BenchListener() {
                @Override
                public void started(final String summary, final int runsPlanned) {
                    listener.getLogger().println("[schedpolicy] benchmark: " + summary + " (" + runsPlanned + " runs)");
                }

                @Override
                public void progress(final Progress progress) {
                    listener.getLogger().println("[schedpolicy] " + progress.line());
                }

                @Override
                public void warning(final String message) {
                    listener.getLogger().println("[schedpolicy] warning: " + message);
                }
            });
        }
    }

    static final class CancelBenchmark extends MasterToSlaveCallable<Boolean, RuntimeException> {
        @Serial
        private static final long serialVersionUID = 1L;
        private final String runKey;
        private final String why;

        CancelBenchmark(final String runKey, final String why) {
            this.runKey = runKey;
            this.why = why;
        }

        @Override
        public Boolean call() {
            return AgentBenchmark.cancel(runKey, why);
        }
    }

    @Extension
    public static class DescriptorImpl extends StepDescriptor {
        @Override
        public String getFunctionName() {
            return "schedBenchmark";
        }

        @NonNull
        @Override
        public String getDisplayName() {
            return "Measure how much each scheduling policy protects a test job from background load";
        }

        @Override
        public Set<? extends Class<?>> getRequiredContext() {
            return Set.of(Run.class, TaskListener.class, Node.class, Computer.class);
        }
    }
}
