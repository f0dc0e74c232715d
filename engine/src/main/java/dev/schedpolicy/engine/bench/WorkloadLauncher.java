package dev.schedpolicy.engine.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schedpolicy.engine.bench.workload.WorkUnit;
import dev.schedpolicy.engine.bench.workload.Protocol;
import dev.schedpolicy.engine.container.ContainerReadBack;
import dev.schedpolicy.engine.scenario.Builtin;
import dev.schedpolicy.engine.scenario.Matrix;
import dev.schedpolicy.engine.scenario.WorkloadSpec;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;

/** Starts the built-in workload JVMs and background commands under a policy and speaks {@link Protocol} with them. */
final class WorkloadLauncher {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> JVM_FLAGS = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
            "-XX:-UsePerfData", "-Xss512k", "-Xshare:auto",
            // compiler threads that come and go would take their CPU time out of /proc before the window closes
            "-XX:-UseDynamicNumberOfCompilerThreads");

    private final BenchOptions options;
    private final RunPlan plan;
    private final ProcessStarter starter;
    private final ProcessTracker tracker;
    private final Consumer<String> warn;
    private double calibration = Double.NaN;

    WorkloadLauncher(final BenchOptions options, final RunPlan plan, final ProcessStarter starter,
            final ProcessTracker tracker, final Consumer<String> warn) {
        this.options = options;
        this.plan = plan;
        this.starter = starter;
        this.tracker = tracker;
        this.warn = warn;
    }

    /** Work units one thread does per second, unloaded; NaN before {@link #calibrate()}. */
    double calibration() {
        return calibration;
    }

    void calibrate() throws IOException {
        ProcessBuilder pb = java(Builtin.CPU_VICTIM, 64, List.of("--calibrate", "500"));
        pb.redirectError(tracker.log("calibrate.err").toFile());
        ProcessStarter.Started st = tracker.track(starter.start(pb, plan.floored(BenchPolicy.DEFAULT)));
        try {
            BufferedReader in = reader(st.process());
            String line;
            do {
                line = tracker.readLine(in, st, 60_000);
            } while (line != null && !Protocol.isResult(line));
            if (line == null) {
                options.cancellation().throwIfCancelled();
                throw new IOException("calibration failed: " + tracker.tail("calibrate.err"));
            }
            calibration = JSON.readTree(line).path("unitsPerSecond").asDouble();
        } finally {
            tracker.close(st);
        }
    }

    private ProcessBuilder java(final Builtin builtin, final int heapMb, final List<String> args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(options.javaCommand != null ? options.javaCommand : Starters.javaCommand());
        cmd.addAll(JVM_FLAGS);
        cmd.add("-Xmx" + heapMb + "m");
        cmd.add("-cp");
        cmd.add(options.workloadClasspath != null ? options.workloadClasspath : workloadClasspath());
        cmd.add(builtin.mainClass());
        cmd.addAll(args);
        return new ProcessBuilder(cmd);
    }

    static String workloadClasspath() {
        Set<String> entries = new LinkedHashSet<>();
        for (Class<?> c : List.of(WorkUnit.class, Histogram.class)) {
            try {
                entries.add(Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
            } catch (Exception e) {
                entries.add(System.getProperty("java.class.path"));
            }
        }
        return String.join(File.pathSeparator, entries);
    }

    /** Starts under a policy; a failure to apply a non-default policy makes that policy's row unavailable. */
    ProcessStarter.Started startPoliced(final Placement.Launch launch, final BenchPolicy policy) throws IOException {
        try {
            ProcessStarter.Started st = tracker.track(starter.start(launch.builder(), policy, launch.cgroupParent()));
            st.warnings().forEach(warn);
            return st;
        } catch (IOException | RuntimeException e) {
            if (policy.isDefault() || options.cancellation().isCancelled()) {
                throw e;
            }
            throw new RunAborted(RunAborted.Kind.POLICY_UNAVAILABLE, e.getMessage() == null ? e.toString() : e.getMessage());
        }
    }

    /**
     * Starts the background: one process with a thread (or a shell job) per copy when it shares the victim's
     * task group, else one process per copy, each placed in its own task group.
     */
    Background startBackground(final BenchPolicy policy, final int copies, final Placement placement)
            throws IOException, InterruptedException {
        WorkloadSpec spec = plan.scenario().background();
        int processes = placement.spreadsBackground() ? copies : 1;
        int perProcess = placement.spreadsBackground() ? 1 : copies;
        List<ProcessStarter.Started> started = new ArrayList<>();
        List<Placement.Launch> launches = new ArrayList<>();
        List<String> where = new ArrayList<>();
        for (int c = 0; c < processes; c++) {
            ProcessBuilder pb;
            if (spec.isCommand()) {
                String loop = "i=0; while [ $i -lt " + perProcess + " ]; do /bin/sh -c \"$0\" & i=$((i+1)); done; wait";
                pb = new ProcessBuilder("/bin/sh", "-c", loop, spec.command());
                pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
            } else {
                pb = backgroundJava(spec, perProcess);
            }
            pb.redirectError(tracker.log("background" + c + ".err").toFile());
            Placement.Launch launch = placement.backgroundCopy(pb, policy);
            started.add(startPoliced(launch, launch.container().isPresent() ? plan.floored(BenchPolicy.DEFAULT) : policy));
            launches.add(launch);
        }
        List<Long> cpuPids = new ArrayList<>();
        for (int c = 0; c < started.size(); c++) {
            Placement.Launch launch = launches.get(c);
            if (launch.container().isPresent()) {
                ContainerReadBack.State state = placement.running(launch);
                cpuPids.add(state.pid());
                where.add(Background.CONTAINER + state.id().substring(0, 12) + ": " + state.describe());
            } else {
                cpuPids.add(started.get(c).process().pid());
                where.add(launch.where());
            }
        }
        Background bg = new Background(started, copies, where, cpuPids);
        if (spec.isCommand()) {
            Thread.sleep(200);
            for (int c = 0; c < started.size(); c++) {
                placement.verify(launches.get(c), started.get(c).process().pid());
            }
            return bg;
        }
        for (int c = 0; c < started.size(); c++) {
            ProcessStarter.Started st = started.get(c);
            BufferedReader out = reader(st.process());
            String first;
            do { // a JVM may print a warning on stdout before the workload's first progress line
                first = tracker.readLine(out, st, 120_000); // a starved idle background on a busy machine is slow
            } while (first != null && Protocol.progressUnits(first).isEmpty());
            if (first == null) {
                options.cancellation().throwIfCancelled();
                throw new IOException("the background workload did not start (" + (st.process().isAlive() ? "no progress in"
                        + " 120 s" : "exit code " + st.process().exitValue()) + "): " + tracker.tail("background" + c + ".err"));
            }
            placement.verify(launches.get(c), st.process().pid());
            bg.follow(out);
        }
        Thread.sleep(150); // let the loopers settle onto the CPUs
        return bg;
    }

    private ProcessBuilder backgroundJava(final WorkloadSpec spec, final int threads) {
        List<String> args = new ArrayList<>(List.of("--threads", Integer.toString(threads)));
        int heapMb = 64;
        switch (spec.builtin()) {
            case MEMORY_LOOPER -> {
                args.addAll(List.of("--mode", "memory"));
                heapMb = 64 + threads * 48;
            }
            case LOOP_COUNTER -> args.add("--print-rate");
            case COMPILE_LOOP -> {
                args.addAll(List.of("--classes", spec.params().getOrDefault("classes", "60")));
                heapMb = 128 + threads * 96;
            }
            default -> {
                // a plain CPU looper
            }
        }
        return java(spec.builtin(), heapMb, args);
    }

    Victims startVictims(final PlannedRun r, final BenchPolicy policy, final int workers, final int copies,
            final List<String> applied, final Placement placement) throws IOException {
        WorkloadSpec spec = plan.scenario().victim();
        Matrix matrix = plan.matrix();
        int ncpu = plan.ncpu();
        List<ProcessStarter.Started> victims = new ArrayList<>();
        List<Placement.Launch> launches = new ArrayList<>();
        List<BufferedReader> readers = new ArrayList<>();
        long durationMs = r.warmup() ? Math.min(matrix.durationMs(), 500) : matrix.durationMs();
        for (int c = 0; c < spec.copies(); c++) {
            List<String> args = new ArrayList<>();
            if (spec.builtin() == Builtin.PERIODIC || spec.builtin() == Builtin.CYCLICTEST) {
                args.addAll(periodicArgs(spec, durationMs, r.warmup()));
            } else {
                long units = Math.max(1, Math.round(calibration * durationMs / 1000.0));
                args.addAll(List.of("--workers", Integer.toString(workers), "--units", Long.toString(units),
                        "--max-ms", Long.toString((long) matrix.maxSlowdown() * durationMs
                                * Math.max(1, (workers + ncpu - 1) / ncpu))));
                if (spec.builtin() == Builtin.TEST_JOB) {
                    args.addAll(List.of("--forks", spec.params().getOrDefault("forks", "20")));
                }
            }
            ProcessBuilder pb = java(spec.builtin(), 64, args);
            pb.redirectError(tracker.log("victim" + c + ".err").toFile());
            BenchPolicy p = spec.pinPerCopy() ? policy.pinnedTo(c % ncpu) : policy;
            Placement.Launch launch = placement.victim(pb, p);
            ProcessStarter.Started st = startPoliced(launch, p);
            victims.add(st);
            launches.add(launch);
            readers.add(reader(st.process()));
            applied.add("victim" + (spec.copies() > 1 ? " " + c : "") + ": " + st.applied()
                    + (launch.where().isEmpty() ? "" : " in " + launch.where()));
        }
        long timeout = 60_000 + 40 * durationMs * Math.max(1, copies + workers);
        for (int c = 0; c < victims.size(); c++) {
            String ready = tracker.readLine(readers.get(c), victims.get(c), timeout);
            if (!Protocol.READY.equals(ready)) {
                throw new IOException("victim did not start: " + tracker.tail("victim" + c + ".err"));
            }
            placement.verify(launches.get(c), victims.get(c).process().pid());
        }
        return new Victims(victims, readers, timeout);
    }

    /**
     * A periodic victim's arguments: its period and the work per cycle (a share of the period, calibrated), and
     * enough cycles that the cell's repetitions together hold the scenario's wakeups (key {@code wakeups}), or
     * else as many as fit the duration.
     */
    private List<String> periodicArgs(final WorkloadSpec spec, final long durationMs, final boolean warmup) {
        double periodMs = Double.parseDouble(spec.params().getOrDefault("period-ms", "100"));
        double share = Double.parseDouble(spec.params().getOrDefault("work-share", "0.3"));
        long perCycle = Math.max(1, Math.round(calibration * periodMs / 1000.0 * share * WorkUnit.ITERATIONS_PER_UNIT));
        long wakeups = Long.parseLong(spec.params().getOrDefault("wakeups", "0"));
        long cycles = wakeups > 0 && !warmup ? (wakeups + plan.matrix().repetitions() - 1) / plan.matrix().repetitions()
                : Math.max(2, Math.round(durationMs / periodMs));
        return List.of("--period-us", Long.toString(Math.round(periodMs * 1000)), "--iterations-per-cycle",
                Long.toString(perCycle), "--cycles", Long.toString(cycles));
    }

    /** Says GO to every victim and reads each one's result line. */
    List<VictimResult> go(final Victims v) throws IOException {
        for (ProcessStarter.Started victim : v.started()) {
            sayGo(victim.process());
        }
        List<VictimResult> results = new ArrayList<>();
        for (int c = 0; c < v.started().size(); c++) {
            String line;
            do {
                line = tracker.readLine(v.readers().get(c), v.started().get(c), v.timeoutMs());
            } while (line != null && !Protocol.isResult(line));
            if (line == null) {
                options.cancellation().throwIfCancelled();
                throw new IOException("victim ended without a result: " + tracker.tail("victim" + c + ".err"));
            }
            results.add(VictimResult.parse(line));
        }
        return results;
    }

    /** Tells a victim waiting after {@link Protocol#READY} to start its work. */
    static void sayGo(final Process victim) throws IOException {
        OutputStream in = victim.getOutputStream();
        in.write((Protocol.GO + "\n").getBytes(StandardCharsets.US_ASCII));
        in.flush();
    }

    static BufferedReader reader(final Process p) {
        return new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    }
}
