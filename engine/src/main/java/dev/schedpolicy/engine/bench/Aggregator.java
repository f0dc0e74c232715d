package dev.schedpolicy.engine.bench;

import dev.schedpolicy.engine.proc.ProcFs;
import dev.schedpolicy.engine.report.BenchReport;
import dev.schedpolicy.engine.report.Stat;
import dev.schedpolicy.engine.scenario.Builtin;
import dev.schedpolicy.engine.scenario.Matrix;
import dev.schedpolicy.engine.scenario.Scenario;
import dev.schedpolicy.engine.scenario.Topology;
import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.ToDoubleFunction;

/** Turns the runs' samples into the report: kept % relative to the baseline, CIs, trust warnings. */
final class Aggregator {
    /** A cell's CPU accounting may be off by this many percent of ncpu x wall before we warn. */
    static final double ACCOUNTING_TOLERANCE_PCT = 5;
    /** CI half-widths above this many points get a warning. */
    static final double CI_WARN_POINTS = 2;

    private final RunPlan plan;
    private final Scenario scenario;
    private final Matrix matrix;
    private final int ncpu;
    private final double calibration;
    private final List<String> warnings;
    private final Consumer<String> warn;
    private final ProcFs procFs;
    private Double loadAverageAtStart;
    private CgroupParentChoice parent = new CgroupParentChoice(java.util.Optional.empty(), false,
            dev.schedpolicy.engine.cgroup.IdleParent.NAME, "not looked for");

    Aggregator(final RunPlan plan, final double calibration, final List<String> warnings, final Consumer<String> warn,
            final ProcFs procFs) {
        this.plan = plan;
        this.scenario = plan.scenario();
        this.matrix = plan.matrix();
        this.ncpu = plan.ncpu();
        this.calibration = calibration;
        this.warnings = warnings;
        this.warn = warn;
        this.procFs = procFs;
    }

    Aggregator loadAverageAtStart(final Double value) {
        loadAverageAtStart = value;
        return this;
    }

    Aggregator cgroupParent(final CgroupParentChoice value) {
        parent = value;
        return this;
    }

    BenchReport report(final List<Sample> samples, final int planned, final Instant started,
            final String failure, final String preset, final long seed) {
        List<Sample> base = samples.stream().filter(s -> s.run().baseline()).toList();
        boolean victim = !scenario.victim().isNone();
        double baseRate = Stat.of(base.stream().map(Sample::victimRate).toList()).mean();
        double baseBgRate = Stat.of(base.stream().filter(s -> s.bgCopies() > 0)
                .map(s -> s.bgUnits() / (s.windowNs() / 1e9) / s.bgCopies()).toList()).mean();
        if (Double.isNaN(baseBgRate) && cpuLooper()) {
            baseBgRate = calibration;
        }
        String bgUnit = scenario.background().isNone() ? null
                : scenario.background().isCommand() ? "cpu-s/s"
                : scenario.background().builtin() == Builtin.MEMORY_LOOPER ? "passes/s (40 MB each)"
                : scenario.background().builtin() == Builtin.COMPILE_LOOP ? "classes compiled/s"
                : "loops/s (x" + dev.schedpolicy.engine.bench.workload.WorkUnit.ITERATIONS_PER_UNIT + " iterations)";

        List<BenchReport.Cell> cells = new ArrayList<>();
        for (Topology topology : plan.topologies()) {
            for (String label : matrix.policies()) {
                for (double load : matrix.loads()) {
                    BenchPolicy policy = BenchPolicy.of(label, ncpu);
                    boolean fromBaseline = plan.coveredByBaseline(load);
                    List<Sample> mine = fromBaseline ? base : samples.stream()
                            .filter(s -> !s.run().baseline() && s.run().topology() == topology
                                    && s.run().policy().label().equals(policy.label()) && s.run().load() == load)
                            .toList();
                    if (mine.isEmpty()) {
                        continue;
                    }
                    cells.add(cell(topology, policy.label(), load, mine, fromBaseline, baseRate, baseBgRate, bgUnit));
                }
            }
        }
        List<String> topologyIds = plan.topologies().stream().map(Topology::id).toList();
        List<BenchReport.Verdict> verdicts = victim && !scenario.background().isNone()
                && scenario.policyTarget() == Scenario.PolicyTarget.BACKGROUND
                ? TopologyVerdicts.of(plan.topologies(), matrix.policies(), cells, scenario, parent) : List.of();
        BenchReport.Baseline baseline = base.isEmpty() ? null : new BenchReport.Baseline(
                Stat.orNull(base.stream().map(Sample::victimRate).toList()),
                Stat.orNull(base.stream().map(Sample::victimWorkMs).toList()),
                Stat.orNull(base.stream().filter(s -> s.bgCopies() > 0)
                        .map(s -> s.bgUnits() / (s.windowNs() / 1e9)).toList()),
                victim ? (scenario.victim().isCommand() ? "runs/s" : "units/s per worker") : bgUnit);
        Instant finished = Instant.now();
        BenchReport.Run run = new BenchReport.Run(started.toString(), finished.toString(),
                Duration.between(started, finished).toMillis() / 1000.0,
                preset, matrix.repetitions(), scenario.warmup(), seed, matrix.durationMs(),
                Double.isNaN(calibration) ? null : calibration, planned, samples.size(),
                parent.parent().map(Object::toString).orElse(null), parent.idleParent());
        String metric = victim ? "keptPct" : "backgroundOfOneCpuPct";
        BenchReport.ScenarioInfo info = new BenchReport.ScenarioInfo(scenario.name(), scenario.title(),
                scenario.description(), scenario.expect(), scenario.source(), scenario.victim().describe(),
                scenario.background().describe(), scenario.policyTarget().name(), scenario.loadAxis().name(), metric);
        return new BenchReport(BenchReport.SCHEMA_VERSION, "schedpolicy", failure != null, failure, info, machine(),
                run, verdicts, matrix.policies(), matrix.loads(), topologyIds, baseline, cells, warnings);
    }

    private boolean cpuLooper() {
        Builtin b = scenario.background().builtin();
        return b == Builtin.CPU_LOOPER || b == Builtin.LOOP_COUNTER;
    }

    private BenchReport.Cell cell(final Topology topology, final String policy, final double load, final List<Sample> s,
            final boolean fromBaseline, final double baseRate, final double baseBgRate, final String bgUnit) {
        boolean victim = !scenario.victim().isNone();
        Stat kept = victim ? stat(s, x -> 100 * x.victimRate() / baseRate) : null;
        Stat rq = victim ? stat(s, x -> 100 * x.victimRunQueueNs() / (x.victimRunQueueNs() + x.victimCpuNs())) : null;
        boolean bg = s.get(0).bgCopies() > 0;
        Stat bgRate = null;
        Stat bgFree = null;
        Stat bgOne = null;
        if (bg) {
            bgRate = scenario.background().isCommand() ? stat(s, x -> x.bgCpuNs() / x.windowNs())
                    : stat(s, x -> x.bgUnits() / (x.windowNs() / 1e9));
            bgFree = stat(s, x -> 100 * x.bgCpuNs() / (ncpu * x.windowNs() - x.victimProcessCpuNs()));
            if (!Double.isNaN(baseBgRate) && !scenario.background().isCommand()) {
                bgOne = stat(s, x -> 100 * x.bgUnits() / (x.windowNs() / 1e9) / baseBgRate);
            }
        }
        Stat total = stat(s, x -> 100 * (x.victimProcessCpuNs() + x.bgCpuNs()) / (ncpu * x.windowNs()));
        Stat psi = stat(s, x -> 100 * x.psiUs() * 1000 / x.windowNs());
        Stat throttled = s.stream().allMatch(x -> x.throttling() == null) ? null
                : stat(s, x -> x.throttling() == null || x.throttling().nrPeriods() == 0 ? Double.NaN
                        : 100.0 * x.throttling().nrThrottled() / x.throttling().nrPeriods());
        Stat wallOverCpu = victim ? stat(s, x -> x.victimWorkMs() * 1e6 * x.victimWorkers() * scenario.victim().copies()
                / x.victimCpuNs()) : null;
        if (scenario.victim().builtin() != Builtin.CPU_VICTIM && scenario.victim().builtin() != Builtin.THREAD_EATER) {
            wallOverCpu = null; // a periodic victim sleeps, cyclictest and a test job's children work outside it
        }
        // the benchmark's own JVM (reading results, sampling /proc) is part of the run, not "other processes"
        Stat gap = stat(s, x -> 100 * (ncpu * x.windowNs() - x.victimProcessCpuNs() - x.bgCpuNs()
                - Math.max(0, x.runnerCpuNs()) - x.idleNs()) / (ncpu * x.windowNs()));
        BenchReport.Latency latency = s.stream().allMatch(x -> x.latency() != null)
                ? WakeupLatency.percentiles(s.stream().map(Sample::latency).toList()) : null;
        List<BenchReport.ThreadDetail> threads = scenario.victim().builtin() == Builtin.THREAD_EATER
                ? averageThreads(s) : null;
        String where = (plan.topologies().size() > 1 ? topology.id() + " " : "") + policy + " load "
                + dev.schedpolicy.engine.report.TextTable.formatLoad(load);
        if (!fromBaseline) {
            if (gap != null && Math.abs(gap.mean()) > ACCOUNTING_TOLERANCE_PCT) {
                warn.accept(String.format(Locale.ROOT, "%s: CPU accounting off by %.1f%% of %d x wall (victim + "
                        + "background + idle should add up to it); other processes were using the CPU, or "
                        + "accounting missed short-lived processes: treat this cell with care", where, gap.mean(), ncpu));
            }
            Stat headline = victim ? kept : bgOne;
            if (headline != null && headline.n() > 1 && headline.ciHalfWidth() > CI_WARN_POINTS) {
                warn.accept(String.format(Locale.ROOT, "%s: 95%% CI half-width %.1f points exceeds %.0f; run more "
                        + "repetitions or on a quieter machine", where, headline.ciHalfWidth(), CI_WARN_POINTS));
            }
        }
        return new BenchReport.Cell(policy, load, topology.id(), s.get(0).bgCopies(), s.get(0).victimWorkers(), fromBaseline,
                s.get(0).applied(), kept, rq, latency, bgRate, bg ? bgUnit : null, bgFree, bgOne, total, psi, throttled,
                wallOverCpu, gap, threads);
    }

    private static List<BenchReport.ThreadDetail> averageThreads(final List<Sample> s) {
        List<BenchReport.ThreadDetail> out = new ArrayList<>();
        int n = s.get(0).threads().size();
        for (int i = 0; i < n; i++) {
            int idx = i;
            List<BenchReport.ThreadDetail> t = s.stream().filter(x -> x.threads().size() > idx)
                    .map(x -> x.threads().get(idx)).toList();
            out.add(new BenchReport.ThreadDetail(t.get(0).name(),
                    t.stream().mapToDouble(BenchReport.ThreadDetail::stepsPerMs).average().orElse(0),
                    t.stream().mapToDouble(BenchReport.ThreadDetail::avgSliceMs).average().orElse(0),
                    t.stream().mapToDouble(BenchReport.ThreadDetail::runQueueMs).average().orElse(0),
                    t.stream().mapToDouble(BenchReport.ThreadDetail::onCpuMs).average().orElse(0)));
        }
        return out;
    }

    private static Stat stat(final List<Sample> s, final ToDoubleFunction<Sample> f) {
        return Stat.orNull(s.stream().map(x -> f.applyAsDouble(x)).toList());
    }

    private BenchReport.Machine machine() {
        String host = procFs.hostname().orElse(null);
        if (host == null) {
            try {
                host = InetAddress.getLocalHost().getHostName();
            } catch (IOException e) {
                host = "unknown";
            }
        }
        String auto = procFs.read(procFs.root().resolve("sys/kernel/sched_autogroup_enabled")).map(String::trim)
                .orElse(null);
        Double loadAvg = loadAverageAtStart;
        return new BenchReport.Machine(host, ncpu, System.getProperty("os.version"), System.getProperty("os.arch"),
                System.getProperty("java.version"), auto == null ? null : auto.equals("1"), loadAvg,
                "same-agent: victim and background are children of the benchmark, one session (autogroup) and one cpu"
                        + " cgroup, as two builds of one agent are, so per-task policies act between them; outside-agent:"
                        + " victim and every background copy each in a sibling cpu cgroup, as services, containers and"
                        + " other agents are, where only cgroup controls act, and a cpu.idle group only from the"
                        + " machine-wide idle parent; other-session: every background copy in a new session (its own"
                        + " autogroup where autogroup is on)");
    }
}
