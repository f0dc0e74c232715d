package dev.schedpolicy.engine.bench;

import dev.schedpolicy.engine.scenario.Matrix;
import dev.schedpolicy.engine.scenario.Scenario;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * Everything one benchmark run needs. Build with {@link #builder(Scenario)}; unset values come from the
 * scenario's preset ({@code quick} or full).
 */
public final class BenchOptions {
    final Scenario scenario;
    final boolean quick;
    final List<String> policies;
    final List<Double> loads;
    final Integer repetitions;
    final Long durationMs;
    final String victimCommand;
    final String backgroundCommand;
    final Path outDir;
    final long seed;
    final ProcessStarter starter;
    final String javaCommand;
    final String workloadClasspath;
    final Cancellation cancellation;
    final Integer ncpu;

    private BenchOptions(final Builder b) {
        this.scenario = Objects.requireNonNull(b.scenario, "scenario");
        this.quick = b.quick;
        this.policies = b.policies == null ? null : List.copyOf(b.policies);
        this.loads = b.loads == null ? null : List.copyOf(b.loads);
        this.repetitions = b.repetitions;
        this.durationMs = b.durationMs;
        this.victimCommand = b.victimCommand;
        this.backgroundCommand = b.backgroundCommand;
        this.outDir = b.outDir;
        this.seed = b.seed;
        this.starter = b.starter;
        this.javaCommand = b.javaCommand;
        this.workloadClasspath = b.workloadClasspath;
        this.cancellation = b.cancellation == null ? new Cancellation() : b.cancellation;
        this.ncpu = b.ncpu;
    }

    /** "quick" or "full", marked custom when the command line replaced part of the preset's matrix. */
    public String presetLabel() {
        String preset = quick ? "quick" : "full";
        boolean custom = policies != null || loads != null || repetitions != null || durationMs != null;
        return custom ? preset + " (customised)" : preset;
    }

    public static Builder builder(final Scenario scenario) {
        return new Builder(scenario);
    }

    public Scenario scenario() {
        return scenario;
    }

    public Cancellation cancellation() {
        return cancellation;
    }

    public java.util.Optional<Path> outDir() {
        return java.util.Optional.ofNullable(outDir);
    }

    /** Lets another thread (a Ctrl-C hook, an aborted Jenkins build) stop the run; started processes are killed. */
    public static final class Cancellation {
        private volatile String reason;
        private final List<Runnable> hooks = new java.util.concurrent.CopyOnWriteArrayList<>();

        public void cancel(final String why) {
            if (reason == null) {
                reason = why;
                hooks.forEach(Runnable::run);
            }
        }

        public boolean isCancelled() {
            return reason != null;
        }

        public String reason() {
            return reason;
        }

        void onCancel(final Runnable hook) {
            hooks.add(hook);
            if (reason != null) {
                hook.run();
            }
        }
    }

    public static final class Builder {
        private final Scenario scenario;
        private boolean quick;
        private List<String> policies;
        private List<Double> loads;
        private Integer repetitions;
        private Long durationMs;
        private String victimCommand;
        private String backgroundCommand;
        private Path outDir;
        private long seed = System.nanoTime();
        private ProcessStarter starter;
        private String javaCommand;
        private String workloadClasspath;
        private Cancellation cancellation;
        private Integer ncpu;

        private Builder(final Scenario scenario) {
            this.scenario = scenario;
        }

        /** The scenario's {@code [quick]} preset instead of its full matrix. */
        public Builder quick(final boolean value) {
            quick = value;
            return this;
        }

        public Builder policies(final List<String> value) {
            policies = value;
            return this;
        }

        public Builder loads(final List<Double> value) {
            if (value != null) {
                Matrix.checkLoads(value);
            }
            loads = value;
            return this;
        }

        public Builder repetitions(final int value) {
            if (value < 1) {
                throw new IllegalArgumentException("repetitions must be at least 1, not " + value);
            }
            repetitions = value;
            return this;
        }

        /** The victim's unloaded run time its work is calibrated to (or the window without a victim). */
        public Builder durationMs(final long value) {
            if (value < 100) {
                throw new IllegalArgumentException("duration must be at least 100 ms, not " + value);
            }
            durationMs = value;
            return this;
        }

        /** Replaces the scenario's victim with a fixed-work shell command. */
        public Builder victimCommand(final String value) {
            victimCommand = value;
            return this;
        }

        /** Replaces the scenario's background with a shell command, started once per load unit. */
        public Builder backgroundCommand(final String value) {
            backgroundCommand = value;
            return this;
        }

        /** Where report.json and report.html go (also the partial ones); none: only the returned result. */
        public Builder outDir(final Path value) {
            outDir = value;
            return this;
        }

        /** Seed of the randomised cell order, recorded in the report for reruns. */
        public Builder seed(final long value) {
            seed = value;
            return this;
        }

        public Builder starter(final ProcessStarter value) {
            starter = value;
            return this;
        }

        /** The java executable for built-in workloads; default: the running JVM's. */
        public Builder javaCommand(final String value) {
            javaCommand = value;
            return this;
        }

        /** Classpath for built-in workloads; default: the engine's and HdrHistogram's code sources. */
        public Builder workloadClasspath(final String value) {
            workloadClasspath = value;
            return this;
        }

        public Builder cancellation(final Cancellation value) {
            cancellation = value;
            return this;
        }

        /** Overrides the CPU count (tests). */
        public Builder ncpu(final int value) {
            ncpu = value;
            return this;
        }

        public BenchOptions build() {
            return new BenchOptions(this);
        }
    }
}
