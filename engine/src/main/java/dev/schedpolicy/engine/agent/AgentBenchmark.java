package dev.schedpolicy.engine.agent;

import dev.schedpolicy.engine.bench.BenchListener;
import dev.schedpolicy.engine.bench.BenchOptions;
import dev.schedpolicy.engine.bench.BenchPolicy;
import dev.schedpolicy.engine.bench.Benchmark;
import dev.schedpolicy.engine.policy.InvalidPolicyException;
import dev.schedpolicy.engine.policy.Policy;
import dev.schedpolicy.engine.scenario.Matrix;
import dev.schedpolicy.engine.scenario.ScenarioCatalog;

import org.HdrHistogram.Histogram;

import java.io.File;
import java.io.Serial;
import java.io.Serializable;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The Jenkins benchmark step's agent side: the same preset rule and matrix limits as the CLI
 * ({@link Matrix.Preset#resolve}, {@link Matrix}), the administrator's {@link AgentLimits} on every
 * benchmark policy (a benchmark launches processes under them, like a block), and cancellation by
 * run key when the build is aborted.
 */
public final class AgentBenchmark {
    private static final Map<String, BenchOptions.Cancellation> RUNNING = new ConcurrentHashMap<>();
    /** Stops benchmarks that outrun the administrator's cap on their length; one daemon thread for the JVM. */
    private static final java.util.concurrent.ScheduledExecutorService CAP_TIMER =
            java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "schedpolicy-benchmark-cap");
                t.setDaemon(true);
                return t;
            });

    private AgentBenchmark() {
    }

    /**
     * What the step's author asked for; null parts are the scenario's.
     *
     * @param quick true for the quick preset, false for the full one, null for the common rule
     */
    public record Request(String scenario, Boolean quick, String policies, String loads, Integer repetitions, String victim,
            String background, String workloadClasspath) implements Serializable {
        @Serial
        private static final long serialVersionUID = 1L;

        /** Checks what can be checked without the scenario, so a bad step argument fails where it was written. */
        public Request {
            if (loads != null) {
                Matrix.parseLoads(loads);
            }
            if (repetitions != null && (repetitions < Matrix.MIN_REPETITIONS || repetitions > Matrix.MAX_REPETITIONS)) {
                throw new IllegalArgumentException("repetitions must be " + Matrix.MIN_REPETITIONS + ".." + Matrix.MAX_REPETITIONS
                        + ", not " + repetitions);
            }
            for (String p : list(policies)) {
                try {
                    Benchmark.validatePolicy(p);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("policies: " + e.getMessage(), e);
                }
            }
        }

        boolean matrixGiven() {
            return policies != null || loads != null || repetitions != null;
        }
    }

    /** The run's options: scenario, preset, matrix and commands, checked against the limits. */
    public static BenchOptions options(final Request r, final AgentLimits limits, final BenchOptions.Cancellation cancellation) {
        return options(r, limits, null, cancellation);
    }

    /**
     * As {@link #options(Request, AgentLimits, BenchOptions.Cancellation)} on a node whose default policy is
     * {@code agentDefault}: a floor for every process the benchmark starts there (the author's victim and background
     * commands included), as for every launch of a build, unless the limits allow authors above the default.
     */
    public static BenchOptions options(final Request r, final AgentLimits limits, final String agentDefault,
            final BenchOptions.Cancellation cancellation) {
        Matrix.Preset preset = Matrix.Preset.resolve(Boolean.TRUE.equals(r.quick()), Boolean.FALSE.equals(r.quick()), r.matrixGiven());
        BenchOptions.Builder b = BenchOptions.builder(new ScenarioCatalog(Benchmark::validatePolicy).load(r.scenario()))
                .preset(preset)
                .policies(r.policies() == null ? null : list(r.policies()))
                .loads(r.loads() == null ? null : Matrix.parseLoads(r.loads()))
                .victimCommand(r.victim())
                .backgroundCommand(r.background())
                .cancellation(cancellation)
                .floor(limits.allowAboveDefault() ? Policy.DEFAULT : PolicyForms.parseOrDefault(agentDefault));
        if (r.repetitions() != null) {
            b.repetitions(r.repetitions());
        }
        if (r.workloadClasspath() != null) {
            b.workloadClasspath(r.workloadClasspath());
        }
        BenchOptions options = b.build();
        checkLimits(options.matrix().policies(), limits, Runtime.getRuntime().availableProcessors());
        return options;
    }

    /** Throws, naming the benchmark policy, when one asks for more than the administrator allows. */
    static void checkLimits(final List<String> policies, final AgentLimits limits, final int ncpu) {
        for (String label : policies) {
            BenchPolicy p = BenchPolicy.of(label, ncpu);
            if (!p.isDefault()) {
                try {
                    limits.toPolicyLimits().check(Policy.parse(p.compact()), ncpu);
                } catch (InvalidPolicyException e) {
                    throw new InvalidPolicyException("benchmark policy '" + label + "' is not allowed here: " + e.getMessage());
                }
            }
        }
    }

    /** Runs the benchmark and returns report.json; {@link #cancel} with the same key stops it. */
    public static String run(final String runKey, final Request request, final AgentLimits limits, final BenchListener listener) {
        return run(runKey, request, limits, null, listener);
    }

    /** As {@link #run(String, Request, AgentLimits, BenchListener)} under the node's default policy as a floor. */
    public static String run(final String runKey, final Request request, final AgentLimits limits, final String agentDefault,
            final BenchListener listener) {
        return run(runKey, request, limits, agentDefault, null, listener);
    }

    /**
     * As {@link #run(String, Request, AgentLimits, String, BenchListener)} within the administrator's {@code caps}: a
     * benchmark that asks for more is refused before anything starts, one that outruns the length cap is stopped there.
     *
     * @param caps null for none beyond the matrix's own bounds
     * @throws IllegalArgumentException naming the cap and where it is set
     */
    public static String run(final String runKey, final Request request, final AgentLimits limits, final String agentDefault,
            final BenchmarkCaps caps, final BenchListener listener) {
        return run(runKey, request, limits, agentDefault, caps, caps == null ? null : caps.longest(), listener);
    }

    /** As {@link #run(String, Request, AgentLimits, String, BenchmarkCaps, BenchListener)}, stopped after {@code stopAfter} (tests). */
    static String run(final String runKey, final Request request, final AgentLimits limits, final String agentDefault,
            final BenchmarkCaps caps, final java.time.Duration stopAfter, final BenchListener listener) {
        BenchOptions.Cancellation cancellation = new BenchOptions.Cancellation();
        BenchOptions options = options(request, limits, agentDefault, cancellation);
        if (caps != null) {
            caps.check(options);
        }
        if (RUNNING.putIfAbsent(runKey, cancellation) != null) {
            throw new IllegalStateException("a benchmark with key " + runKey + " is already running");
        }
        java.util.concurrent.ScheduledFuture<?> stop = caps == null ? null : CAP_TIMER.schedule(
                () -> cancellation.cancel(caps.stoppedReason()), stopAfter.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        try {
            return Benchmark.run(options, listener).json();
        } finally {
            if (stop != null) {
                stop.cancel(false);
            }
            RUNNING.remove(runKey);
        }
    }

    /** {@link #run(String, Request, AgentLimits, BenchListener)} with its events as log lines (a build's console). */
    public static String run(final String runKey, final Request request, final AgentLimits limits, final Consumer<String> log) {
        return run(runKey, request, limits, null, log);
    }

    /** As {@link #run(String, Request, AgentLimits, Consumer)} under the node's default policy as a floor. */
    public static String run(final String runKey, final Request request, final AgentLimits limits, final String agentDefault,
            final Consumer<String> log) {
        return run(runKey, request, limits, agentDefault, null, log);
    }

    /** As {@link #run(String, Request, AgentLimits, String, Consumer)} within the administrator's {@code caps}. */
    public static String run(final String runKey, final Request request, final AgentLimits limits, final String agentDefault,
            final BenchmarkCaps caps, final Consumer<String> log) {
        return run(runKey, request, limits, agentDefault, caps, new BenchListener() {
            @Override
            public void started(final String summary, final int runsPlanned) {
                log.accept("benchmark: " + summary + " (" + runsPlanned + " runs)");
            }

            @Override
            public void progress(final Progress progress) {
                log.accept(progress.line());
            }

            @Override
            public void warning(final String message) {
                log.accept("warning: " + message);
            }
        });
    }

    /**
     * The files the built-in workloads' JVMs need on their classpath: the engine's and HdrHistogram's
     * code sources. An agent that loaded them through remoting has no copy on disk, so the caller copies
     * these there and passes the copies as {@link Request#workloadClasspath()}.
     */
    public static List<File> workloadJars() {
        List<File> out = new ArrayList<>();
        for (Class<?> c : List.of(Benchmark.class, Histogram.class)) {
            try {
                out.add(new File(c.getProtectionDomain().getCodeSource().getLocation().toURI()));
            } catch (URISyntaxException e) {
                throw new IllegalStateException("cannot locate the code of " + c.getName() + ": " + e.getMessage(), e);
            }
        }
        return out;
    }

    /** Stops the benchmark of {@code runKey}, if it runs here; its processes are killed. */
    public static boolean cancel(final String runKey, final String why) {
        BenchOptions.Cancellation c = RUNNING.get(runKey);
        if (c != null) {
            c.cancel(why);
        }
        return c != null;
    }

    static List<String> list(final String csv) {
        if (csv == null) {
            return List.of();
        }
        return new ArrayList<>(Arrays.stream(csv.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList());
    }
}
