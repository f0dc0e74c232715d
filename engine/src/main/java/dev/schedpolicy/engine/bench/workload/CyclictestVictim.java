package dev.schedpolicy.engine.bench.workload;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * rt-tests' cyclictest as a victim: the cross-check of the periodic victim's wakeup latency. After GO it runs
 * {@code cyclictest} at SCHED_OTHER (one thread, {@code --period-us} interval, {@code --cycles} loops, a
 * histogram with one bucket per microsecond), reads its histogram into an HdrHistogram and reports it like
 * {@link PeriodicTask} does. Latencies beyond the histogram's last bucket count at that bucket (cyclictest
 * reports them as overflows; the max it prints is kept as the maximum).
 */
public final class CyclictestVictim {
    static final int BUCKETS_US = 100_000;

    private CyclictestVictim() {
    }

    public static void main(final String[] argv) throws Exception {
        Args args = new Args(argv);
        long periodUs = args.getLong("period-us", 1000);
        long cycles = args.getLong("cycles", 1000);
        String binary = args.get("cyclictest", "cyclictest");
        List<String> cmd = List.of(binary, "--quiet", "--policy=other", "--threads=1",
                "--interval=" + periodUs, "--loops=" + cycles, "--histogram=" + BUCKETS_US, "--default-system");
        Histogram warm = new Histogram(60_000_000L, 3);
        warm.recordValue(1);
        if (PeriodicTask.encode(warm).isEmpty()) {
            throw new IllegalStateException();
        }
        if (!Protocol.readyAndWait()) {
            return;
        }
        long start = System.nanoTime();
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        List<String> lines = new ArrayList<>();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                lines.add(line);
            }
        }
        int rc = p.waitFor();
        long wallNs = System.nanoTime() - start;
        if (rc != 0) {
            throw new IOException("cyclictest exited with " + rc + ": " + String.join(" | ", lines.subList(
                    Math.max(0, lines.size() - 5), lines.size())));
        }
        Histogram h = parse(lines);
        Protocol.result("{\"workload\":\"cyclictest\",\"workers\":1,\"units\":" + h.getTotalCount() + ",\"workNs\":" + wallNs
                + ",\"cpuNs\":0,\"runQueueNs\":0,\"latencyUs\":{\"p50\":" + h.getValueAtPercentile(50)
                + ",\"p99\":" + h.getValueAtPercentile(99) + ",\"p999\":" + h.getValueAtPercentile(99.9)
                + ",\"max\":" + h.getMaxValue() + ",\"count\":" + h.getTotalCount()
                + ",\"histogram\":\"" + PeriodicTask.encode(h) + "\"}}");
        Protocol.awaitExit();
    }

    /**
     * cyclictest's histogram: lines {@code 000123 000042} (latency in us, count; one column per thread), then
     * {@code #} summary lines, among them {@code # Max Latencies: 01234}.
     */
    static Histogram parse(final List<String> lines) {
        Histogram h = new Histogram(60_000_000L, 3);
        long max = -1;
        for (String line : lines) {
            String t = line.strip();
            if (t.startsWith("# Max Latencies:")) {
                max = Long.parseLong(t.substring("# Max Latencies:".length()).strip().split("\\s+")[0]);
            } else if (!t.isEmpty() && Character.isDigit(t.charAt(0))) {
                String[] f = t.split("\\s+");
                long count = Long.parseLong(f[1]);
                if (count > 0) {
                    h.recordValueWithCount(Long.parseLong(f[0]), count);
                }
            }
        }
        if (h.getTotalCount() == 0) {
            throw new IllegalStateException("cyclictest printed no histogram: " + String.join(" | ", lines));
        }
        if (max > h.getMaxValue()) {
            h.recordValue(max); // one overflow wakeup at the true maximum, so the report's max is cyclictest's
        }
        return h;
    }
}
