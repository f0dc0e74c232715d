package dev.schedpolicy.engine.bench;

import dev.schedpolicy.engine.proc.CpuTimes;

/**
 * Counters at one edge of a measuring window. The process counters are read first and the clock with
 * /proc/stat right after, in the same order at both edges, so the edges of the accounting line up.
 *
 * @param nanos      System.nanoTime()
 * @param bgUnits    background work units done so far
 * @param bgCpuNs    background process trees' CPU
 * @param victimCpuNs victim process trees' CPU
 * @param runnerCpuNs this JVM's CPU, -1 unknown
 * @param cpu        all CPUs' idle and total time
 * @param psiUs      PSI cpu some total, -1 without PSI
 * @param throttling the background's cgroup counters, or null
 */
record Snapshot(long nanos, long bgUnits, long bgCpuNs, long victimCpuNs, long runnerCpuNs, CpuTimes cpu, long psiUs,
        ProcessStarter.Throttling throttling) {

    static Snapshot take(final SystemSampler sampler, final Background bg, final Victims victims) {
        long bgCpu = bg.cpuNs(sampler);
        long victimCpu = victims.cpuNs(sampler);
        ProcessStarter.Throttling thr = bg.throttling().orElse(null);
        long units = bg.units();
        long runner = SystemSampler.selfCpuNs();
        return new Snapshot(System.nanoTime(), units, bgCpu, victimCpu, runner, sampler.cpuTimes(), sampler.psiCpuSomeUs(),
                thr);
    }
}
