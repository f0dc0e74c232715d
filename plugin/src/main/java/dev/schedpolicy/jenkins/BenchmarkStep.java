package dev.schedpolicy.jenkins;

import dev.schedpolicy.engine.agent.BenchmarkGate;
import dev.schedpolicy.engine.agent.BenchmarkSummary;
import dev.schedpolicy.engine.bench.BenchListener;
import dev.schedpolicy.engine.bench.BenchOptions;
import dev.schedpolicy.engine.bench.Benchmark;
import dev.schedpolicy.engine.scenario.ScenarioCatalog;
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
import java.io.Serial;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.Arrays;
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
 * runs the engine's benchmark on the agent ({@code Benchmark.run}, progress streamed to the build
 * log), stores report.json as a {@link BenchmarkBuildAction}, and applies the optional gate.
 */
public class BenchmarkStep extends Step {
    private String scenario = "seed-cpu-looper";
    private boolean quick = true;
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

    public boolean isQuick() {
        return quick;
    }

    /** The CLI's {@code --quick} preset (6 policies x 3 loads x 3 repetitions); default true. */
    @DataBoundSetter
    public void setQuick(final boolean quick) {
        this.quick = quick;
    }

    public String getPolicies() {
        return policies;
    }

    /** Comma-separated benchmark policies, e.g. {@code default,nice19,idle,quota50}. */
    @DataBoundSetter
    public void setPolicies(final String policies) {
        this.policies = PolicyFields.blankToNull(policies);
        if (this.policies != null) {
            for (String p : list(this.policies)) {
                try {
                    Benchmark.validatePolicy(p);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("policies: " + e.getMessage(), e);
                }
            }
        }
    }

    public String getLoads() {
        return loads;
    }

    /** Comma-separated loads as multiples of the CPU count, e.g. {@code 1,2,4}. */
    @DataBoundSetter
    public void setLoads(final String loads) {
        this.loads = PolicyFields.blankToNull(loads);
        if (this.loads != null) {
            parseLoads(this.loads);
        }
    }

    public Integer getRepetitions() {
        return repetitions;
    }

    @DataBoundSetter
    public void setRepetitions(final Integer repetitions) {
        if (repetitions != null && (repetitions < 1 || repetitions > 100)) {
            throw new IllegalArgumentException("repetitions must be 1..100, not " + repetitions);
        }
        this.repetitions = repetitions;
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

    static List<String> list(final String csv) {
        return Arrays.stream(csv.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    static List<Double> parseLoads(final String csv) {
        List<Double> out = new ArrayList<>();
        for (String s : list(csv)) {
            try {
                double d = Double.parseDouble(s);
                if (d < 0 || d > 64) {
                    throw new NumberFormatException();
                }
                out.add(d);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("loads are multiples of the CPU count, 0..64, comma-separated (e.g. '1,2,4'); not '" + s + "'", e);
            }
        }
        return out;
    }

    @Override
    public StepExecution start(final StepContext context) {
        return new Execution(context, this);
    }

    static final class Execution extends SynchronousNonBlockingStepExecution<Void> {
        @Serial
        private static final long serialVersionUID = 1L;
        private final transient BenchmarkStep step;

        Execution(final StepContext context, final BenchmarkStep step) {
            super(context);
            this.step = step;
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
            String json = channel.call(new RunBenchmark(step, classpath, listener));
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

    /** On the agent: copies the options into the engine's builder and calls {@code Benchmark.run}. */
    static final class RunBenchmark extends MasterToSlaveCallable<String, RuntimeException> {
        @Serial
        private static final long serialVersionUID = 1L;
        private final String scenario;
        private final boolean quick;
        private final String policies;
        private final String loads;
        private final Integer repetitions;
        private final String victim;
        private final String background;
        private final String classpath;
        private final TaskListener listener;

        RunBenchmark(final BenchmarkStep step, final String classpath, final TaskListener listener) {
            this.scenario = step.scenario;
            this.quick = step.quick;
            this.policies = step.policies;
            this.loads = step.loads;
            this.repetitions = step.repetitions;
            this.victim = step.victim;
            this.background = step.background;
            this.classpath = classpath;
            this.listener = listener;
        }

        @Override
        public String call() {
            BenchOptions.Builder b = BenchOptions.builder(new ScenarioCatalog(Benchmark::validatePolicy).load(scenario))
                    .quick(quick)
                    .policies(policies == null ? null : list(policies))
                    .loads(loads == null ? null : parseLoads(loads))
                    .victimCommand(victim)
                    .backgroundCommand(background);
            if (repetitions != null) {
                b.repetitions(repetitions);
            }
            if (classpath != null) {
                b.workloadClasspath(classpath);
            }
            return Benchmark.run(b.build(), new BenchListener() {
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
            }).json();
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
