package dev.schedpolicy.engine.bench;

import dev.schedpolicy.engine.cgroup.CgroupSystem;
import dev.schedpolicy.engine.proc.ProcFs;
import dev.schedpolicy.engine.report.BenchReport;
import dev.schedpolicy.engine.scenario.Scenario;
import dev.schedpolicy.engine.scenario.Topology;
import dev.schedpolicy.engine.scenario.WorkloadSpec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/** Runs one scenario's matrix: calibration, warm-up, baselines and cells in random order, then aggregates. */
final class MatrixRunner {
    private final BenchOptions options;
    private final BenchListener listener;
    private final RunPlan plan;
    private final CgroupParentChoice parent;
    private final ProcessStarter starter;
    private final SystemSampler sampler = new SystemSampler(ProcFs.system());
    private final Supplier<CgroupSystem> cgroups = new Supplier<>() {
        private CgroupSystem detected;

        @Override
        public synchronized CgroupSystem get() {
            if (detected == null) {
                detected = CgroupSystem.detect();
            }
            return detected;
        }
    };
    private final List<String> warnings = new ArrayList<>();
    private final Set<String> unavailable = new LinkedHashSet<>();
    private long startNanos;
    private int runsDone;
    private int runsTotal;

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
        int ncpu = options.ncpu != null ? options.ncpu : Runtime.getRuntime().availableProcessors();
        this.plan = new RunPlan(s, options.matrix(), ncpu, options.floor);
        // looked up for every run, cgroup policies or not: the outside-agent verdict says whether it exists
        this.parent = CgroupParentChoice.resolve(options.cgroupParent(), options.idleParent(), cgroups);
        this.starter = options.starter != null ? options.starter : Starters.defaultStarter();
    }

    BenchReport run() {
        Instant started = Instant.now();
        startNanos = System.nanoTime();
        Double loadAverageAtStart = sampler.procFs().loadAverage().orElse(null);
        List<Sample> samples = new ArrayList<>();
        String failure = null;
        List<PlannedRun> runs = plan.runs(options.seed);
        double calibration = Double.NaN;
        try (ProcessTracker tracker = new ProcessTracker(options.cancellation(), this::warnOnce)) {
            for (String p : plan.matrix().policies()) {
                starter.validate(p);
            }
            WorkloadLauncher launcher = new WorkloadLauncher(options, plan, starter, tracker, this::warnOnce);
            runsTotal = runs.size() + plan.scenario().warmup() + (plan.needsCalibration() ? 1 : 0);
            listener.started(plan.summary() + (parent.parent().isPresent() ? "; cgroup policies under "
                    + parent.parent().get() + (parent.idleParent() ? " (the machine-wide idle parent)" : "") : ""),
                    runsTotal);
            plan.floorNote().ifPresent(this::warnOnce);
            if (plan.needsCalibration()) {
                launcher.calibrate();
                calibration = launcher.calibration();
                runsDone++;
                progress("calibration", String.format(Locale.ROOT, "%.0f units/s per thread", calibration), 2);
            }
            CellRunner cells = new CellRunner(plan, launcher, tracker, sampler, options.cancellation());
            for (int w = 0; w < plan.scenario().warmup(); w++) {
                measure(cells, PlannedRun.warmUp());
            }
            for (PlannedRun r : runs) {
                options.cancellation().throwIfCancelled();
                if (Thread.currentThread().isInterrupted()) {
                    throw new InterruptedException("interrupted");
                }
                if (unavailable.contains(r.policy().label()) || unavailable.contains(r.topology().id())
                        || unavailable.contains(r.policy().label() + "@" + r.topology().id())) {
                    runsDone++;
                    continue;
                }
                try {
                    samples.add(measure(cells, r));
                } catch (RunAborted e) {
                    runsDone++;
                    if (e.kind() == RunAborted.Kind.POLICY_UNAVAILABLE) {
                        unavailable.add(r.policy().label());
                        warnOnce("policy '" + r.policy().label() + "' cannot be applied here, its row is skipped: "
                                + e.getMessage());
                    } else if (e.kind() == RunAborted.Kind.POLICY_UNAVAILABLE_IN_TOPOLOGY) {
                        unavailable.add(r.policy().label() + "@" + r.topology().id());
                        warnOnce("policy '" + r.policy().label() + "' cannot act in topology " + r.topology().id()
                                + ", its row is skipped there: " + e.getMessage());
                    } else if (e.kind() == RunAborted.Kind.TOPOLOGY_UNAVAILABLE) {
                        unavailable.add(r.topology().id());
                        warnOnce("topology " + r.topology().id() + " cannot be set up here, it is skipped: "
                                + e.getMessage());
                    } else {
                        throw e;
                    }
                }
            }
        } catch (RunAborted e) {
            failure = "interrupted: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failure = "interrupted";
        } catch (Exception e) {
            failure = options.cancellation().isCancelled() ? "interrupted: " + options.cancellation().reason()
                    : e.getMessage() == null ? e.toString() : e.getMessage();
        }
        return new Aggregator(plan, calibration, warnings, this::warnOnce, sampler.procFs()).loadAverageAtStart(loadAverageAtStart)
                .cgroupParent(parent)
                .report(samples, runs.size(), started, failure, options.presetLabel(), options.seed);
    }

    private Sample measure(final CellRunner cells, final PlannedRun r) throws Exception {
        List<ProcessStarter.Started> mine = new ArrayList<>();
        Placement placement = new Placement(r.topology(), cgroups, parent.parent(), options.containerImage());
        try {
            Sample s = cells.run(r, mine, placement);
            runsDone++;
            String result = "";
            if (!Double.isNaN(s.victimRate()) && !r.warmup()) {
                result = String.format(Locale.ROOT, "victim %.0f ms", s.victimWorkMs());
            } else if (s.bgCopies() > 0) {
                result = String.format(Locale.ROOT, "background %.0f units/s", s.bgUnits() / (s.windowNs() / 1e9));
            }
            progress(r.what(), result, 1);
            return s;
        } finally {
            mine.forEach(cells::close);
            // a killed JVM tears down for a while: let it finish before the next run's window opens
            for (ProcessStarter.Started st : mine) {
                st.process().onExit().completeOnTimeout(null, 2, TimeUnit.SECONDS).join();
            }
            placement.close();
        }
    }

    private void progress(final String what, final String result, final double etaFactor) {
        double elapsed = (System.nanoTime() - startNanos) / 1e9;
        double eta = runsDone == 0 ? 0 : elapsed / runsDone * (runsTotal - runsDone) * etaFactor;
        listener.progress(new BenchListener.Progress(runsDone, runsTotal, what, result, elapsed, eta));
    }

    private void warnOnce(final String message) {
        if (!warnings.contains(message)) {
            warnings.add(message);
            listener.warning(message);
        }
    }
}
