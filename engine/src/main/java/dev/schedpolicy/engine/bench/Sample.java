package dev.schedpolicy.engine.bench;

import dev.schedpolicy.engine.bench.workload.WorkUnit;
import dev.schedpolicy.engine.report.BenchReport;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * What one run measured. {@code victimCpuNs} is what the victim's work threads used while working (its
 * self-report: run-queue share, wall/CPU); {@code victimProcessCpuNs} is everything the victim processes used
 * inside the runner's window (start-up excluded), which the CPU totals and the accounting check use;
 * {@code runnerCpuNs} is this JVM's own CPU in the window (-1 unknown); {@code latency} holds all wakeups of the
 * run's periodic victims (null for other victims).
 */
record Sample(PlannedRun run, double victimRate, double victimWorkMs, double victimCpuNs, double victimRunQueueNs,
        int victimWorkers, Histogram latency, List<BenchReport.ThreadDetail> threads, double windowNs,
        double bgUnits, double bgCpuNs, double idleNs, double psiUs, ProcessStarter.Throttling throttling,
        String applied, int bgCopies, double victimProcessCpuNs, double runnerCpuNs) {

    /** The run's figures from the counters at both edges of its window and the victims' results. */
    static Sample of(final PlannedRun r, final Snapshot a, final Snapshot b, final List<VictimResult> victims,
            final double victimProcessCpuNs, final int workers, final String applied, final int copies) {
        double rate = Double.NaN;
        double workMs = Double.NaN;
        double cpu = 0;
        double rq = 0;
        Histogram latency = WakeupLatency.merge(victims);
        List<BenchReport.ThreadDetail> threads = new ArrayList<>();
        if (!victims.isEmpty()) {
            double rateSum = 0;
            double workSum = 0;
            for (VictimResult v : victims) {
                rateSum += v.rate();
                workSum += v.workNs();
                cpu += v.cpuNs();
                rq += v.runQueueNs();
                for (VictimResult.Thread t : v.threads()) {
                    double slices = Math.max(1, t.timeslices());
                    threads.add(new BenchReport.ThreadDetail(t.name(),
                            t.units() * WorkUnit.ITERATIONS_PER_UNIT / (t.wallNs() / 1e6),
                            t.onCpuNs() / slices / 1e6, t.runQueueNs() / 1e6, t.onCpuNs() / 1e6));
                }
            }
            rate = rateSum / victims.size();
            workMs = workSum / victims.size() / 1e6;
        }
        double idle = a.cpu().idleNs() < 0 ? Double.NaN : b.cpu().idleNs() - a.cpu().idleNs();
        double psi = a.psiUs() < 0 ? Double.NaN : b.psiUs() - a.psiUs();
        ProcessStarter.Throttling thr = a.throttling() == null || b.throttling() == null ? null
                : new ProcessStarter.Throttling(b.throttling().nrPeriods() - a.throttling().nrPeriods(),
                        b.throttling().nrThrottled() - a.throttling().nrThrottled(),
                        b.throttling().throttledUsec() - a.throttling().throttledUsec());
        double runner = a.runnerCpuNs() < 0 || b.runnerCpuNs() < 0 ? -1 : b.runnerCpuNs() - a.runnerCpuNs();
        return new Sample(r, rate, workMs, cpu, rq, workers, latency, threads, b.nanos() - a.nanos(),
                b.bgUnits() - a.bgUnits(), b.bgCpuNs() - a.bgCpuNs(), idle, psi, thr, applied, copies, victimProcessCpuNs,
                runner);
    }
}
