package dev.schedpolicy.engine.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schedpolicy.engine.report.BenchReport;
import dev.schedpolicy.engine.report.Stat;
import dev.schedpolicy.engine.scenario.Builtin;
import dev.schedpolicy.engine.scenario.Matrix;
import dev.schedpolicy.engine.scenario.Scenario;
import dev.schedpolicy.engine.scenario.WorkloadSpec;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;

/** Runs one scenario's matrix: calibration, warm-up, baselines and cells in random order, then aggregates. */
final class MatrixRunner {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> JVM_FLAGS = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
            "-XX:-UsePerfData", "-Xss512k", "-Xshare:auto",
            // compiler threads that come and go would take their CPU time out of /proc before the window closes
            "-XX:-UseDynamicNumberOfCompilerThreads");

    private final BenchOptions options;
    private final BenchListener listener;
    private final Scenario scenario;
    private final Matrix matrix;
    private final int ncpu;
    private final ProcessStarter starter;
    private final SystemSampler sampler = new SystemSampler(Path.of("/proc"));
    private final Set<ProcessStarter.Started> live = ConcurrentHashMap.newKeySet();
    private final List<String> warnings = new ArrayList<>();
    private final Set<String> unavailable = new LinkedHashSet<>();
    private final ScheduledExecutorService watchdog;
    private double calibration = Double.NaN;
    private Double loadAverageAtStart;
    private Path tmp;
    private long startNanos;
    private int runsDone;
    private int runsTotal;

    /** One planned run: a matrix cell's repetition or a baseline. */
    record Run(BenchPolicy policy, double load, int rep, boolean baseline, boolean warmup) {
        String what() {
            if (warmup) {
                return "warm-up";
            }
            return (baseline ? "baseline" : policy.label() + " load " + dev.schedpolicy.engine.report.TextTable.formatLoad(load))
                    + " rep " + rep;
        }
    }

    /**
     * What one run measured. {@code victimCpuNs} is what the victim's work threads used while working (its
     * self-report: run-queue share, wall/CPU); {@code victimProcessCpuNs} is everything the victim processes
     * used inside the runner's window (start-up excluded), which the CPU totals and the accounting check use;
     * {@code runnerCpuNs} is this JVM's own CPU in the window (-1 unknown).
     */
    record Sample(Run run, double victimRate, double victimWorkMs, double victimCpuNs, double victimRunQueueNs,
            int victimWorkers, BenchReport.Latency latency, List<BenchReport.ThreadDetail> threads, double windowNs,
            double bgUnits, double bgCpuNs, double idleNs, double psiUs, ProcessStarter.Throttling throttling,
            String applied, int bgCopies, double victimProcessCpuNs, double runnerCpuNs) {
    }

    private record Snap(long nanos, long bgUnits, long bgCpu, long victimCpu, long runnerCpu, SystemSampler.CpuTimes cpu,
            long psi, ProcessStarter.Throttling throttling) {
    }

    MatrixRunner(final BenchOptions options, final BenchListener listener) {
        this.options = options;
        this.listener = listener;
        Scenario s = options.scenario;
        if (options.victimCommand != null) {
            s = s.withVictim(WorkloadSpec.command(options.victimCommand, 1));
        }
        if (options.backgroundCommand != null) {
            s = s.withBackground(WorkloadSpec.command(options.backgroundCommand, 1));
        }
        this.scenario = s;
        this.matrix = options.matrix();
        this.ncpu = options.ncpu != null ? options.ncpu : Runtime.getRuntime().availableProcessors();
        this.starter = options.starter != null ? options.starter : Starters.defaultStarter();
        this.watchdog = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "schedpolicy-bench-watchdog");
            t.setDaemon(true);
            return t;
        });
    }

    BenchReport run() {
        Instant started = Instant.now();
        startNanos = System.nanoTime();
        loadAverageAtStart = Aggregator.loadAverage();
        List<Sample> samples = new ArrayList<>();
        String failure = null;
        options.cancellation.onCancel(this::killAll);
        List<Run> plan = plan();
        try {
            for (String p : matrix.policies()) {
                starter.validate(p);
            }
            tmp = Files.createTempDirectory("schedpolicy-bench-");
            runsTotal = plan.size() + scenario.warmup() + (needsCalibration() ? 1 : 0);
            listener.started(summary(), runsTotal);
            if (needsCalibration()) {
                calibrate();
            }
            for (int w = 0; w < scenario.warmup(); w++) {
                Run warm = new Run(BenchPolicy.DEFAULT, 0, 0, true, true);
                runOne(warm);
            }
            for (Run r : plan) {
                checkCancelled();
                if (unavailable.contains(r.policy().label())) {
                    runsDone++;
                    continue;
                }
                try {
                    samples.add(runOne(r));
                } catch (PolicyUnavailableException e) {
                    unavailable.add(r.policy().label());
                    runsDone++;
                    warnOnce("policy '" + r.policy().label() + "' cannot be applied here, its row is skipped: "
                            + e.getMessage());
                }
            }
        } catch (CancelledException e) {
            failure = "interrupted: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failure = "interrupted";
        } catch (Exception e) {
            failure = options.cancellation.isCancelled() ? "interrupted: " + options.cancellation.reason()
                    : e.getMessage() == null ? e.toString() : e.getMessage();
        } finally {
            killAll();
            watchdog.shutdownNow();
            deleteTmp();
        }
        return aggregate(samples, plan.size(), started, failure);
    }

    private boolean needsCalibration() {
        return !scenario.victim().isNone() && !scenario.victim().isCommand()
                || scenario.background().builtin() != null;
    }

    private String summary() {
        return "scenario " + scenario.name() + ": " + matrix.policies().size() + " policies x " + matrix.loads().size()
                + " loads x " + matrix.repetitions() + " repetitions on " + ncpu + " CPUs, victim " + matrix.durationMs()
                + " ms unloaded";
    }

    private List<Run> plan() {
        List<Run> runs = new ArrayList<>();
        for (int rep = 1; rep <= matrix.repetitions(); rep++) {
            runs.add(new Run(BenchPolicy.DEFAULT, 0, rep, true, false));
            for (String label : matrix.policies()) {
                for (double load : matrix.loads()) {
                    if (!coveredByBaseline(load)) {
                        runs.add(new Run(BenchPolicy.of(label, ncpu), load, rep, false, false));
                    }
                }
            }
        }
        Collections.shuffle(runs, new Random(options.seed));
        return runs;
    }

    /** Load 0 with the policy on the (absent) background is the unloaded baseline itself. */
    private boolean coveredByBaseline(final double load) {
        return load == 0 && scenario.policyTarget() == Scenario.PolicyTarget.BACKGROUND
                && scenario.loadAxis() == Scenario.LoadAxis.BACKGROUND && !scenario.victim().isNone();
    }

    private void checkCancelled() throws InterruptedException {
        if (options.cancellation.isCancelled()) {
            throw new CancelledException(options.cancellation.reason());
        }
        if (Thread.currentThread().isInterrupted()) {
            throw new InterruptedException("interrupted");
        }
    }

    /** The run was cancelled through {@link BenchOptions.Cancellation}. */
    private static final class CancelledException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        CancelledException(final String reason) {
            super(reason);
        }
    }

    // ---------------------------------------------------------------- one run

    private int backgroundCopies(final Run r) {
        if (scenario.background().isNone() || scenario.loadAxis() == Scenario.LoadAxis.VICTIM_WORKERS) {
            return 0;
        }
        if (r.baseline()) {
            return scenario.victim().isNone() ? 1 : 0;
        }
        return (int) Math.round(r.load() * scenario.background().copiesPerLoad(ncpu));
    }

    private int victimWorkers(final Run r) {
        if (scenario.loadAxis() == Scenario.LoadAxis.VICTIM_WORKERS && !r.baseline()) {
            return Math.max(1, (int) Math.round(r.load() * ncpu));
        }
        return scenario.victim().workers();
    }

    private Sample runOne(final Run r) throws Exception {
        BenchPolicy bgPolicy = !r.baseline() && scenario.policyTarget() == Scenario.PolicyTarget.BACKGROUND
                ? r.policy() : BenchPolicy.DEFAULT;
        BenchPolicy victimPolicy = !r.baseline() && scenario.policyTarget() == Scenario.PolicyTarget.VICTIM
                ? r.policy() : BenchPolicy.DEFAULT;
        int copies = backgroundCopies(r);
        int workers = victimWorkers(r);
        List<ProcessStarter.Started> mine = new ArrayList<>();
        ProcessStarter.Started bg = null;
        AtomicLong bgUnits = new AtomicLong();
        try {
            List<String> applied = new ArrayList<>();
            // built-in victims start first, on an idle machine, and wait for GO: under nice19 or idle against the
            // hogs a JVM would otherwise need a minute of starved start-up before it could even say READY
            Victims victims = builtinVictim() ? startVictims(r, victimPolicy, workers, copies, applied, mine) : null;
            if (copies > 0) {
                bg = startBackground(bgPolicy, copies, bgUnits);
                mine.add(bg);
                applied.add(0, "background: " + bg.applied());
            }
            Sample s;
            if (scenario.victim().isNone()) {
                Snap a = snap(bg, bgUnits, List.of());
                Thread.sleep(matrix.durationMs());
                Snap b = snap(bg, bgUnits, List.of());
                s = sample(r, a, b, null, 0, workers, String.join("; ", applied), copies);
            } else if (scenario.victim().isCommand()) {
                s = runCommandVictim(r, bg, bgUnits, victimPolicy, applied, copies, mine);
            } else {
                s = measureVictims(r, bg, bgUnits, victims, workers, applied, copies);
            }
            runsDone++;
            report(r, s);
            return s;
        } finally {
            for (ProcessStarter.Started st : mine) {
                close(st);
            }
            // a killed JVM tears down for a while: let it finish before the next run's window opens
            for (ProcessStarter.Started st : mine) {
                st.process().onExit().completeOnTimeout(null, 2, TimeUnit.SECONDS).join();
            }
        }
    }

    private void report(final Run r, final Sample s) {
        double elapsed = (System.nanoTime() - startNanos) / 1e9;
        double eta = runsDone == 0 ? 0 : elapsed / runsDone * (runsTotal - runsDone);
        String result = "";
        if (!Double.isNaN(s.victimRate()) && !r.warmup()) {
            result = String.format(Locale.ROOT, "victim %.0f ms", s.victimWorkMs());
        } else if (s.bgCopies() > 0) {
            result = String.format(Locale.ROOT, "background %.0f units/s", s.bgUnits() / (s.windowNs() / 1e9));
        }
        listener.progress(new BenchListener.Progress(runsDone, runsTotal, r.what(), result, elapsed, eta));
    }

    private ProcessStarter.Started startBackground(final BenchPolicy policy, final int copies, final AtomicLong units)
            throws IOException, InterruptedException {
        WorkloadSpec spec = scenario.background();
        ProcessBuilder pb;
        if (spec.isCommand()) {
            String loop = "i=0; while [ $i -lt " + copies + " ]; do /bin/sh -c \"$0\" & i=$((i+1)); done; wait";
            pb = new ProcessBuilder("/bin/sh", "-c", loop, spec.command());
            pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
        } else {
            List<String> args = new ArrayList<>(List.of("--threads", Integer.toString(copies)));
            if (spec.builtin() == Builtin.MEMORY_LOOPER) {
                args.addAll(List.of("--mode", "memory"));
            }
            if (spec.builtin() == Builtin.LOOP_COUNTER) {
                args.add("--print-rate");
            }
            int heapMb = spec.builtin() == Builtin.MEMORY_LOOPER ? 64 + copies * 48 : 64;
            pb = java(spec.builtin(), heapMb, args);
        }
        pb.redirectError(tmp.resolve("background.err").toFile());
        ProcessStarter.Started st = startPoliced(pb, policy);
        st.warnings().forEach(this::warnOnce);
        if (spec.isCommand()) {
            Thread.sleep(200);
            return st;
        }
        BufferedReader out = reader(st.process());
        String first = readLine(out, st, 30_000);
        if (first == null || !first.startsWith("P ")) {
            throw new IOException("the background workload did not start: " + tail(tmp.resolve("background.err")));
        }
        Thread t = new Thread(() -> {
            try {
                String line;
                while ((line = out.readLine()) != null) {
                    if (line.startsWith("P ")) {
                        units.set(Long.parseLong(line.substring(2).trim()));
                    }
                }
            } catch (IOException | NumberFormatException e) {
                // the process was killed: the last count stands
            }
        }, "schedpolicy-bench-background-reader");
        t.setDaemon(true);
        t.start();
        Thread.sleep(150); // let the loopers settle onto the CPUs
        return st;
    }

    private boolean builtinVictim() {
        return !scenario.victim().isNone() && !scenario.victim().isCommand();
    }

    /** Started built-in victims that said READY and wait for GO. */
    private record Victims(List<ProcessStarter.Started> started, List<BufferedReader> readers, long timeoutMs) {
    }

    private Victims startVictims(final Run r, final BenchPolicy policy, final int workers, final int copies,
            final List<String> applied, final List<ProcessStarter.Started> mine) throws Exception {
        WorkloadSpec spec = scenario.victim();
        List<ProcessStarter.Started> victims = new ArrayList<>();
        List<BufferedReader> readers = new ArrayList<>();
        long durationMs = r.warmup() ? Math.min(matrix.durationMs(), 500) : matrix.durationMs();
        for (int c = 0; c < spec.copies(); c++) {
            List<String> args = new ArrayList<>();
            if (spec.builtin() == Builtin.PERIODIC) {
                long period = Long.parseLong(spec.params().getOrDefault("period-ms", "100"));
                double share = Double.parseDouble(spec.params().getOrDefault("work-share", "0.3"));
                long perCycle = Math.max(1, Math.round(calibration * period / 1000.0 * share));
                long cycles = Math.max(2, durationMs / period);
                args.addAll(List.of("--period-ms", Long.toString(period), "--units-per-cycle", Long.toString(perCycle),
                        "--cycles", Long.toString(cycles)));
            } else {
                long units = Math.max(1, Math.round(calibration * durationMs / 1000.0));
                args.addAll(List.of("--workers", Integer.toString(workers), "--units", Long.toString(units),
                        "--max-ms", Long.toString((long) matrix.maxSlowdown() * durationMs * Math.max(1, (workers + ncpu - 1) / ncpu))));
            }
            ProcessBuilder pb = java(spec.builtin(), 64, args);
            pb.redirectError(tmp.resolve("victim" + c + ".err").toFile());
            BenchPolicy p = spec.pinPerCopy() ? policy.pinnedTo(c % ncpu) : policy;
            ProcessStarter.Started st = startPoliced(pb, p);
            st.warnings().forEach(this::warnOnce);
            mine.add(st);
            victims.add(st);
            readers.add(reader(st.process()));
            applied.add("victim" + (spec.copies() > 1 ? " " + c : "") + ": " + st.applied());
        }
        long timeout = 60_000 + 40 * durationMs * Math.max(1, copies + workers);
        for (int c = 0; c < victims.size(); c++) {
            String ready = readLine(readers.get(c), victims.get(c), timeout);
            if (!"READY".equals(ready)) {
                throw new IOException("victim did not start: " + tail(tmp.resolve("victim" + c + ".err")));
            }
        }
        return new Victims(victims, readers, timeout);
    }

    private Sample measureVictims(final Run r, final ProcessStarter.Started bg, final AtomicLong bgUnits, final Victims v,
            final int workers, final List<String> applied, final int copies) throws Exception {
        List<ProcessStarter.Started> victims = v.started();
        List<BufferedReader> readers = v.readers();
        long timeout = v.timeoutMs();
        Snap a = snap(bg, bgUnits, victims);
        for (ProcessStarter.Started victim : victims) {
            OutputStream in = victim.process().getOutputStream();
            in.write("GO\n".getBytes(StandardCharsets.US_ASCII));
            in.flush();
        }
        List<JsonNode> results = new ArrayList<>();
        for (int c = 0; c < victims.size(); c++) {
            String line;
            do {
                line = readLine(readers.get(c), victims.get(c), timeout);
            } while (line != null && !line.startsWith("{"));
            if (line == null) {
                checkCancelled();
                throw new IOException("victim ended without a result: " + tail(tmp.resolve("victim" + c + ".err")));
            }
            results.add(JSON.readTree(line));
        }
        // the victims stay alive (threads included) until closed, so /proc still holds all their CPU time
        Snap b = snap(bg, bgUnits, victims);
        return sample(r, a, b, results, b.victimCpu() - a.victimCpu(), workers, String.join("; ", applied), copies);
    }

    private Sample runCommandVictim(final Run r, final ProcessStarter.Started bg, final AtomicLong bgUnits,
            final BenchPolicy policy, final List<String> applied, final int copies,
            final List<ProcessStarter.Started> mine) throws Exception {
        Path statFile = tmp.resolve("victim.stat");
        Files.deleteIfExists(statFile);
        String script = "(\n" + scenario.victim().command() + "\n)\nrc=$?\nread -r s < /proc/$$/stat\n"
                + "printf '%s\\n' \"$s\" > \"$SCHEDPOLICY_STAT\"\nexit $rc\n";
        ProcessBuilder pb = new ProcessBuilder("/bin/sh", "-c", script);
        pb.environment().put("SCHEDPOLICY_STAT", statFile.toString());
        pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.redirectError(tmp.resolve("victim0.err").toFile());
        pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        Snap a = snap(bg, bgUnits, List.of());
        ProcessStarter.Started st = startPoliced(pb, policy);
        st.warnings().forEach(this::warnOnce);
        mine.add(st);
        applied.add("victim: " + st.applied());
        Map<Long, long[]> perTask = new LinkedHashMap<>();
        ScheduledFuture<?> kill = watchdog.schedule(st::close, Math.max(600_000, 50 * matrix.durationMs()),
                TimeUnit.MILLISECONDS);
        while (!st.process().waitFor(50, TimeUnit.MILLISECONDS)) {
            sampleTree(st.process().pid(), perTask);
        }
        kill.cancel(false);
        Snap b = snap(bg, bgUnits, List.of());
        checkCancelled();
        int rc = st.process().exitValue();
        if (rc != 0) {
            throw new IOException("the victim command failed with exit code " + rc + ": "
                    + tail(tmp.resolve("victim0.err")));
        }
        long cpuNs = Files.exists(statFile)
                ? SystemSampler.cpuNsFromStatLine(Files.readString(statFile).trim()) : -1;
        long onCpu = perTask.values().stream().mapToLong(v -> v[0]).sum();
        long wait = perTask.values().stream().mapToLong(v -> v[1]).sum();
        double wallNs = b.nanos() - a.nanos();
        String json = "{\"workers\":1,\"units\":1,\"workNs\":" + (long) wallNs + ",\"cpuNs\":"
                + (cpuNs >= 0 ? cpuNs : onCpu) + ",\"runQueueNs\":" + wait + ",\"onCpuSampledNs\":" + onCpu + "}";
        // the shell's own CPU plus everything it waited for: the whole victim command, start-up included
        return sample(r, a, b, List.of(JSON.readTree(json)), cpuNs >= 0 ? cpuNs : onCpu, 1, String.join("; ", applied),
                copies);
    }

    private void sampleTree(final long pid, final Map<Long, long[]> perTask) {
        List<Long> pids = new ArrayList<>();
        pids.add(pid);
        ProcessHandle.of(pid).ifPresent(h -> h.descendants().forEach(d -> pids.add(d.pid())));
        for (long p : pids) {
            try (var tasks = Files.list(Path.of("/proc", Long.toString(p), "task"))) {
                for (Path t : tasks.toList()) {
                    try {
                        String[] s = Files.readString(t.resolve("schedstat")).trim().split("\\s+");
                        long key = Long.parseLong(t.getFileName().toString());
                        long[] v = perTask.computeIfAbsent(key, k -> new long[2]);
                        v[0] = Math.max(v[0], Long.parseLong(s[0]));
                        v[1] = Math.max(v[1], Long.parseLong(s[1]));
                    } catch (IOException | RuntimeException e) {
                        // gone meanwhile
                    }
                }
            } catch (IOException | RuntimeException e) {
                // gone meanwhile
            }
        }
    }

    /**
     * Counters at one edge of a window. The process counters are read first and the clock with /proc/stat
     * right after, in the same order at both edges, so the edges of the accounting line up.
     */
    private Snap snap(final ProcessStarter.Started bg, final AtomicLong bgUnits,
            final List<ProcessStarter.Started> victims) {
        long bgCpu = bg == null ? 0 : sampler.treeCpuNs(bg.process().pid());
        long victimCpu = 0;
        for (ProcessStarter.Started v : victims) {
            victimCpu += sampler.treeCpuNs(v.process().pid());
        }
        Optional<ProcessStarter.Throttling> thr = bg == null ? Optional.empty() : bg.throttling();
        long units = bgUnits.get();
        long runner = SystemSampler.selfCpuNs();
        return new Snap(System.nanoTime(), units, bgCpu, victimCpu, runner, sampler.cpuTimes(), sampler.psiCpuSomeUs(),
                thr.orElse(null));
    }

    private Sample sample(final Run r, final Snap a, final Snap b, final List<JsonNode> victims,
            final double victimProcessCpuNs, final int workers, final String applied, final int copies) {
        double window = b.nanos() - a.nanos();
        double rate = Double.NaN;
        double workMs = Double.NaN;
        double cpu = 0;
        double rq = 0;
        BenchReport.Latency latency = null;
        List<BenchReport.ThreadDetail> threads = new ArrayList<>();
        if (victims != null && !victims.isEmpty()) {
            double rateSum = 0;
            double workSum = 0;
            List<BenchReport.Latency> lats = new ArrayList<>();
            for (JsonNode v : victims) {
                double units = v.path("units").asDouble();
                int w = v.path("workers").asInt(1);
                double workNs = v.path("workNs").asDouble();
                rateSum += units / w / (workNs / 1e9);
                workSum += workNs;
                cpu += v.path("cpuNs").asDouble();
                rq += v.path("runQueueNs").asDouble();
                if (v.has("latencyUs")) {
                    JsonNode l = v.get("latencyUs");
                    lats.add(new BenchReport.Latency(l.path("p50").asDouble(), l.path("p99").asDouble(),
                            l.path("p999").asDouble(), l.path("max").asDouble()));
                }
                for (JsonNode t : v.path("threads")) {
                    double slices = Math.max(1, t.path("timeslices").asDouble());
                    threads.add(new BenchReport.ThreadDetail(t.path("name").asText(),
                            t.path("units").asDouble() * dev.schedpolicy.engine.bench.workload.Kernel.ITERATIONS_PER_UNIT
                                    / (t.path("wallNs").asDouble() / 1e6),
                            t.path("onCpuNs").asDouble() / slices / 1e6, t.path("runQueueNs").asDouble() / 1e6,
                            t.path("onCpuNs").asDouble() / 1e6));
                }
            }
            rate = rateSum / victims.size();
            workMs = workSum / victims.size() / 1e6;
            if (!lats.isEmpty()) {
                latency = new BenchReport.Latency(lats.stream().mapToDouble(BenchReport.Latency::p50).max().orElse(0),
                        lats.stream().mapToDouble(BenchReport.Latency::p99).max().orElse(0),
                        lats.stream().mapToDouble(BenchReport.Latency::p999).max().orElse(0),
                        lats.stream().mapToDouble(BenchReport.Latency::max).max().orElse(0));
            }
        }
        double idle = a.cpu().idleNs() < 0 ? Double.NaN : b.cpu().idleNs() - a.cpu().idleNs();
        double psi = a.psi() < 0 ? Double.NaN : b.psi() - a.psi();
        ProcessStarter.Throttling thr = a.throttling() == null || b.throttling() == null ? null
                : new ProcessStarter.Throttling(b.throttling().nrPeriods() - a.throttling().nrPeriods(),
                        b.throttling().nrThrottled() - a.throttling().nrThrottled(),
                        b.throttling().throttledUsec() - a.throttling().throttledUsec());
        double runner = a.runnerCpu() < 0 || b.runnerCpu() < 0 ? -1 : b.runnerCpu() - a.runnerCpu();
        return new Sample(r, rate, workMs, cpu, rq, workers, latency, threads, window, b.bgUnits() - a.bgUnits(),
                b.bgCpu() - a.bgCpu(), idle, psi, thr, applied, copies, victimProcessCpuNs, runner);
    }

    // ---------------------------------------------------------------- calibration

    private void calibrate() throws Exception {
        ProcessBuilder pb = java(Builtin.CPU_VICTIM, 64, List.of("--calibrate", "500"));
        pb.redirectError(tmp.resolve("calibrate.err").toFile());
        ProcessStarter.Started st = track(starter.start(pb, BenchPolicy.DEFAULT));
        try {
            BufferedReader in = reader(st.process());
            String line;
            do {
                line = readLine(in, st, 60_000);
            } while (line != null && !line.startsWith("{"));
            if (line == null) {
                checkCancelled();
                throw new IOException("calibration failed: " + tail(tmp.resolve("calibrate.err")));
            }
            calibration = JSON.readTree(line).path("unitsPerSecond").asDouble();
        } finally {
            close(st);
        }
        runsDone++;
        double elapsed = (System.nanoTime() - startNanos) / 1e9;
        listener.progress(new BenchListener.Progress(runsDone, runsTotal, "calibration",
                String.format(Locale.ROOT, "%.0f units/s per thread", calibration), elapsed,
                elapsed * (runsTotal - runsDone) * 2));
    }

    // ---------------------------------------------------------------- processes

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
        for (Class<?> c : List.of(dev.schedpolicy.engine.bench.workload.Kernel.class, Histogram.class)) {
            try {
                entries.add(Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
            } catch (Exception e) {
                entries.add(System.getProperty("java.class.path"));
            }
        }
        return String.join(File.pathSeparator, entries);
    }

    /** Starts under a policy; a failure to apply a non-default policy makes that policy's row unavailable. */
    private ProcessStarter.Started startPoliced(final ProcessBuilder pb, final BenchPolicy policy) throws IOException {
        try {
            return track(starter.start(pb, policy));
        } catch (IOException | RuntimeException e) {
            if (policy.isDefault() || options.cancellation.isCancelled()) {
                throw e;
            }
            throw new PolicyUnavailableException(e.getMessage() == null ? e.toString() : e.getMessage());
        }
    }

    /** The engine could not apply a policy on this machine. */
    private static final class PolicyUnavailableException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        PolicyUnavailableException(final String message) {
            super(message);
        }
    }

    private ProcessStarter.Started track(final ProcessStarter.Started st) {
        live.add(st);
        if (options.cancellation.isCancelled()) {
            close(st);
        }
        return st;
    }

    private void close(final ProcessStarter.Started st) {
        try {
            st.close();
        } finally {
            live.remove(st);
        }
    }

    private void killAll() {
        for (ProcessStarter.Started st : List.copyOf(live)) {
            try {
                close(st);
            } catch (RuntimeException e) {
                warnOnce("could not clean up a process: " + e.getMessage());
            }
        }
    }

    private static BufferedReader reader(final Process p) {
        return new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    }

    /** Reads a line; kills the process when it takes longer than the timeout (readLine then ends with null). */
    private String readLine(final BufferedReader in, final ProcessStarter.Started st, final long timeoutMs)
            throws IOException {
        ScheduledFuture<?> kill = watchdog.schedule(st::close, timeoutMs, TimeUnit.MILLISECONDS);
        try {
            return in.readLine();
        } finally {
            kill.cancel(false);
        }
    }

    private static String tail(final Path file) {
        try {
            List<String> lines = Files.readAllLines(file);
            String t = lines.subList(Math.max(0, lines.size() - 5), lines.size()).stream().collect(Collectors.joining(" | "));
            return t.isBlank() ? "(no error output)" : t;
        } catch (IOException e) {
            return "(no error output)";
        }
    }

    private void deleteTmp() {
        if (tmp == null) {
            return;
        }
        try (var files = Files.list(tmp)) {
            for (Path f : files.toList()) {
                Files.deleteIfExists(f);
            }
            Files.deleteIfExists(tmp);
        } catch (IOException e) {
            // best effort: a temp dir of logs
        }
    }

    private void warnOnce(final String message) {
        if (!warnings.contains(message)) {
            warnings.add(message);
            listener.warning(message);
        }
    }

    // ---------------------------------------------------------------- aggregation

    private BenchReport aggregate(final List<Sample> samples, final int planned, final Instant started,
            final String failure) {
        return new Aggregator(scenario, matrix, ncpu, calibration, warnings, this::warnOnce)
                .loadAverageAtStart(loadAverageAtStart).report(samples, planned, started, failure, options.presetLabel(), options.seed);
    }
}
