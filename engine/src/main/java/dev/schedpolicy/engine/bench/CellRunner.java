package dev.schedpolicy.engine.bench;

import java.util.ArrayList;
import java.util.List;

/** One run of the matrix: starts the victims, then the background, measures one window, and returns the sample. */
final class CellRunner {
    private final RunPlan plan;
    private final WorkloadLauncher launcher;
    private final ProcessTracker tracker;
    private final SystemSampler sampler;
    private final BenchOptions.Cancellation cancellation;

    CellRunner(final RunPlan plan, final WorkloadLauncher launcher, final ProcessTracker tracker,
            final SystemSampler sampler, final BenchOptions.Cancellation cancellation) {
        this.plan = plan;
        this.launcher = launcher;
        this.tracker = tracker;
        this.sampler = sampler;
        this.cancellation = cancellation;
    }

    /** @param mine collects every process started for the run, for the caller to close */
    Sample run(final PlannedRun r, final List<ProcessStarter.Started> mine, final Placement placement) throws Exception {
        int copies = plan.backgroundCopies(r);
        int workers = plan.victimWorkers(r);
        List<String> applied = new ArrayList<>();
        // built-in victims start first, on an idle machine, and wait for GO: under nice19 or idle against the
        // hogs a JVM would otherwise need a minute of starved start-up before it could even say READY
        Victims victims = Victims.NONE;
        if (plan.builtinVictim()) {
            victims = launcher.startVictims(r, plan.victimPolicy(r), workers, copies, applied, placement);
            mine.addAll(victims.started());
        }
        Background bg = Background.NONE;
        if (copies > 0) {
            bg = launcher.startBackground(plan.backgroundPolicy(r), copies, placement);
            mine.addAll(bg.processes());
            applied.add(0, "background: " + bg.applied());
        }
        try (BenchGuard guard = r.policy().isGuard() && !plan.scenario().victim().isNone() ? BenchGuard.start(bg) : BenchGuard.NONE) {
            victims.started().forEach(v -> guard.watch(v.process().pid()));
            return measure(r, bg, victims, guard, applied, copies, workers, placement);
        }
    }

    private Sample measure(final PlannedRun r, final Background bg, final Victims victims, final BenchGuard guard,
            final List<String> applied, final int copies, final int workers, final Placement placement) throws Exception {
        String appliedText = String.join("; ", applied);
        if (plan.scenario().victim().isNone()) {
            Snapshot a = Snapshot.take(sampler, bg, Victims.NONE);
            Thread.sleep(plan.matrix().durationMs());
            Snapshot b = Snapshot.take(sampler, bg, Victims.NONE);
            return Sample.of(r, a, b, List.of(), 0, workers, appliedText, copies);
        }
        if (plan.scenario().victim().isCommand()) {
            CommandVictim victim = new CommandVictim(plan.scenario().victim().command(), launcher, tracker, sampler,
                    Math.max(600_000, 50 * plan.matrix().durationMs()));
            CommandVictim.Measured m = victim.run(bg, plan.victimPolicy(r), applied, cancellation, placement, guard::watch);
            said(applied, guard.finish());
            return Sample.of(r, m.before(), m.after(), List.of(m.result()), m.processCpuNs(), 1, String.join("; ", applied),
                    copies);
        }
        Snapshot a = Snapshot.take(sampler, bg, victims);
        List<VictimResult> results = launcher.go(victims);
        // the victims stay alive (threads included) until closed, so /proc still holds all their CPU time
        Snapshot b = Snapshot.take(sampler, bg, victims);
        said(applied, guard.finish());
        return Sample.of(r, a, b, results, b.victimCpuNs() - a.victimCpuNs(), workers, String.join("; ", applied), copies);
    }

    private static void said(final List<String> applied, final String line) {
        if (!line.isEmpty()) {
            applied.add(line);
        }
    }

    void close(final ProcessStarter.Started st) {
        tracker.close(st);
    }
}
