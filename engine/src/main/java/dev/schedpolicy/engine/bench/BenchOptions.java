package dev.schedpolicy.engine.bench;

import dev.schedpolicy.engine.policy.Policy;
import dev.schedpolicy.engine.scenario.Matrix;
import dev.schedpolicy.engine.scenario.Scenario;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * Everything one benchmark run needs. Build with {@link #builder(Scenario)}; unset values come from the
 * scenario's preset ({@code quick} or full). {@link Builder#build()} resolves the matrix, so a bad load,
 * repetition count or duration is refused there with the {@link Matrix} model's message.
 */
public final class BenchOptions {
    final Scenario scenario;
    final Matrix.Preset preset;
    final boolean customised;
    final Matrix matrix;
    final Path cgroupParent;
    final Path idleParent;
    final String containerImage;
    final String victimCommand;
    final String backgroundCommand;
    final Path outDir;
    final long seed;
    final ProcessStarter starter;
    final String javaCommand;
    final String workloadClasspath;
    final Cancellation cancellation;
    final Integer ncpu;
    final Policy floor;

    private BenchOptions(final Builder b) {
        this.scenario = Objects.requireNonNull(b.scenario, "scenario");
        this.preset = b.preset;
        this.customised = b.policies != null || b.loads != null || b.repetitions != null || b.durationMs != null
                || b.topologies != null;
        this.matrix = scenario.matrix(preset).customised(b.policies, b.loads, b.repetitions, b.durationMs)
                .withTopologies(b.topologies);
        this.cgroupParent = b.cgroupParent;
        this.idleParent = b.idleParent;
        this.containerImage = b.containerImage;
        this.victimCommand = b.victimCommand;
        this.backgroundCommand = b.backgroundCommand;
        this.outDir = b.outDir;
        this.seed = b.seed;
        this.starter = b.starter;
        this.javaCommand = b.javaCommand;
        this.workloadClasspath = b.workloadClasspath;
        this.cancellation = b.cancellation == null ? new Cancellation() : b.cancellation;
        this.ncpu = b.ncpu;
        this.floor = b.floor == null ? Policy.DEFAULT : b.floor;
    }

    /** "quick" or "full", marked custom when the command line replaced part of the preset's matrix. */
    public String presetLabel() {
        return customised ? preset.label() + " (customised)" : preset.label();
    }

    /** The matrix this run measures: the preset's, with the given parts replaced. */
    /**
     * How long the run is expected to take, from its plan (every run of the matrix, its warm-up and calibration), in
     * seconds; rough, as the start line's estimate.
     */
    public double estimatedSeconds() {
        return new RunPlan(scenario, matrix, ncpu != null ? ncpu : Runtime.getRuntime().availableProcessors(), floor).estimatedSeconds();
    }

    public Matrix matrix() {
        return matrix;
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

    /** Where cgroup policies make their groups, e.g. a machine-wide idle parent; empty: the launcher's default. */
    public java.util.Optional<Path> cgroupParent() {
        return java.util.Optional.ofNullable(cgroupParent);
    }

    /** Where to look for the machine-wide idle parent; empty: the default place (schedpolicy.idle at the top). */
    public java.util.Optional<Path> idleParent() {
        return java.util.Optional.ofNullable(idleParent);
    }

    /** The local image the container topology runs its background copies in; empty: that topology is unavailable. */
    public java.util.Optional<String> containerImage() {
        return java.util.Optional.ofNullable(containerImage);
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

        /** Ends the current run when the benchmark was cancelled. */
        void throwIfCancelled() {
            if (reason != null) {
                throw new RunAborted(RunAborted.Kind.CANCELLED, reason);
            }
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
        private Matrix.Preset preset = Matrix.Preset.FULL;
        private List<String> policies;
        private List<Double> loads;
        private Integer repetitions;
        private Long durationMs;
        private List<dev.schedpolicy.engine.scenario.Topology> topologies;
        private Path cgroupParent;
        private Path idleParent;
        private String containerImage;
        private String victimCommand;
        private String backgroundCommand;
        private Path outDir;
        private long seed = System.nanoTime();
        private ProcessStarter starter;
        private Policy floor;
        private String javaCommand;
        private String workloadClasspath;
        private Cancellation cancellation;
        private Integer ncpu;

        private Builder(final Scenario scenario) {
            this.scenario = scenario;
        }

        /** The scenario's {@code [quick]} preset instead of its full matrix. */
        public Builder quick(final boolean value) {
            preset = value ? Matrix.Preset.QUICK : Matrix.Preset.FULL;
            return this;
        }

        /** The preset, e.g. from {@link Matrix.Preset#resolve}. */
        public Builder preset(final Matrix.Preset value) {
            preset = Objects.requireNonNull(value, "preset");
            return this;
        }

        public Builder policies(final List<String> value) {
            policies = value;
            return this;
        }

        public Builder loads(final List<Double> value) {
            loads = value;
            return this;
        }

        public Builder repetitions(final int value) {
            repetitions = value;
            return this;
        }

        /** The victim's unloaded run time its work is calibrated to (or the window without a victim). */
        public Builder durationMs(final long value) {
            durationMs = value;
            return this;
        }

        /** Replaces the preset's topologies (null keeps them). */
        public Builder topologies(final List<dev.schedpolicy.engine.scenario.Topology> value) {
            topologies = value;
            return this;
        }

        /** Where cgroup policies make their groups (e.g. a machine-wide idle parent); null: the default. */
        public Builder cgroupParent(final Path value) {
            cgroupParent = value;
            return this;
        }

        /**
         * Where the machine-wide idle parent is; null: the default place. Without a cgroup parent, cgroup policies
         * go under it when it is set up and usable.
         */
        public Builder idleParent(final Path value) {
            idleParent = value;
            return this;
        }

        /**
         * The local image for the container topology (its background copies run in containers of it, with the host's
         * JDK and the benchmark's classes mounted read-only); null: that topology is unavailable.
         */
        public Builder containerImage(final String value) {
            containerImage = value == null || value.isBlank() ? null : value.strip();
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

        /**
         * The administrator's default policy of the node the benchmark runs on, a floor for every process it starts
         * (victim, background, baseline, calibration): each row runs its policy merged over the floor and floored by
         * it ({@link dev.schedpolicy.engine.policy.PolicyFloor}). Null or the default: none.
         */
        public Builder floor(final Policy value) {
            floor = value;
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

        /** @throws IllegalArgumentException when the resulting matrix breaks one of {@link Matrix}'s limits */
        public BenchOptions build() {
            return new BenchOptions(this);
        }
    }
}
