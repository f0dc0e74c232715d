package dev.schedpolicy.engine.bench.workload;

import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * Periodic task: every {@code --period-us} (100,000) it wakes at an absolute deadline and does
 * {@code --iterations-per-cycle} kernel iterations, for {@code --cycles} cycles; a cycle that overruns skips
 * the periods already past (counted as missed), as cyclictest does. Reports wakeup latency
 * (actual wakeup minus deadline, HdrHistogram, microseconds, the histogram itself included so the runner can
 * merge runs), summed runtime and missed deadlines.
 */
public final class PeriodicTask {
    private PeriodicTask() {
    }

    public static void main(final String[] argv) throws Exception {
        Args args = new Args(argv);
        WorkUnit.spin(400);
        WorkUnit.spinIterations(400L * WorkUnit.ITERATIONS_PER_UNIT); // the per-cycle loop compiled before READY too
        long periodNs = args.getLong("period-us", 100_000) * 1_000L;
        // work per cycle in kernel iterations, so a 1 ms period can carry a few microseconds of work
        long iterationsPerCycle = args.getLong("iterations-per-cycle", 10L * WorkUnit.ITERATIONS_PER_UNIT);
        long cycles = args.getLong("cycles", 20);
        // the result path once before READY, so its class loading and compilation stay out of the window
        Histogram warm = new Histogram(60_000_000L, 3);
        warm.recordValue(1);
        LockSupport.parkNanos(1_000_000L);
        if (resultJson(1, 1, 1, 1, 1, 0, SelfStat.delta(SelfStat.threads(), SelfStat.threads()), warm).isEmpty()) {
            throw new IllegalStateException();
        }
        if (!Protocol.readyAndWait()) {
            return;
        }
        Histogram latency = new Histogram(60_000_000L, 3);
        Map<Long, SelfStat.Thread> before = SelfStat.threads();
        long start = System.nanoTime() + 1_000_000L;
        long runtimeNs = 0;
        long maxRuntimeNs = 0;
        int missed = 0;
        long deadline = start;
        for (long c = 0; c < cycles; c++) {
            long now;
            while ((now = System.nanoTime()) < deadline) {
                LockSupport.parkNanos(deadline - now);
            }
            latency.recordValue(Math.max(0, (now - deadline) / 1000));
            WorkUnit.spinIterations(iterationsPerCycle);
            long end = System.nanoTime();
            runtimeNs += end - now;
            maxRuntimeNs = Math.max(maxRuntimeNs, end - now);
            deadline += periodNs;
            if (end > deadline) {
                // overran: skip the periods already gone, as cyclictest does, so lateness never accumulates
                long skipped = (end - deadline) / periodNs + 1;
                missed += (int) skipped;
                deadline += skipped * periodNs;
            }
        }
        long wallNs = System.nanoTime() - start;
        long[] d = SelfStat.delta(before, SelfStat.threads());
        Protocol.result(resultJson(iterationsPerCycle, cycles, runtimeNs, wallNs, maxRuntimeNs, missed, d, latency));
        Protocol.awaitExit();
    }

    private static String resultJson(final long iterationsPerCycle, final long cycles, final long runtimeNs,
            final long wallNs, final long maxRuntimeNs, final int missed, final long[] d, final Histogram latency) {
        return "{\"workload\":\"periodic\",\"workers\":1,\"units\":"
                + (double) iterationsPerCycle * cycles / WorkUnit.ITERATIONS_PER_UNIT
                + ",\"cycles\":" + cycles + ",\"workNs\":" + runtimeNs + ",\"wallNs\":" + wallNs
                + ",\"maxRuntimeNs\":" + maxRuntimeNs + ",\"missed\":" + missed
                + ",\"cpuNs\":" + d[0] + ",\"runQueueNs\":" + d[1] + ",\"timeslices\":" + d[2]
                + ",\"latencyUs\":{\"p50\":" + latency.getValueAtPercentile(50)
                + ",\"p99\":" + latency.getValueAtPercentile(99) + ",\"p999\":" + latency.getValueAtPercentile(99.9)
                + ",\"max\":" + latency.getMaxValue() + ",\"count\":" + latency.getTotalCount()
                + ",\"histogram\":\"" + encode(latency) + "\"}}";
    }

    /** The histogram compressed and base64-encoded: one JSON string the runner decodes and merges. */
    static String encode(final Histogram h) {
        java.nio.ByteBuffer buf = java.nio.ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int n = h.encodeIntoCompressedByteBuffer(buf);
        return java.util.Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(buf.array(), n));
    }
}
