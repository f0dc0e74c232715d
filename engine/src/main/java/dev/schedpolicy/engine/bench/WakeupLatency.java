package dev.schedpolicy.engine.bench;

import dev.schedpolicy.engine.report.BenchReport;
import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.List;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/**
 * Wakeup latency histograms (microseconds): decoded from the victims' result lines, merged over a run's copies
 * and a cell's repetitions, so a cell's percentiles come from all its wakeups, not from an average of maxima.
 */
final class WakeupLatency {
    private WakeupLatency() {
    }

    /** Decodes and merges the victims' histograms; null when none reported one. */
    static Histogram merge(final List<VictimResult> victims) {
        Histogram merged = null;
        for (VictimResult v : victims) {
            if (v.latencyUs() == null || v.latencyUs().histogram() == null) {
                continue;
            }
            Histogram h = decode(v.latencyUs().histogram());
            if (merged == null) {
                merged = h;
            } else {
                merged.add(h);
            }
        }
        return merged;
    }

    static Histogram decode(final String base64) {
        try {
            return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(base64)), 0);
        } catch (DataFormatException | IllegalArgumentException e) {
            throw new IllegalArgumentException("a victim sent a latency histogram that cannot be decoded: " + e.getMessage(), e);
        }
    }

    /** Percentiles over all wakeups of a cell's runs. */
    static BenchReport.Latency percentiles(final List<Histogram> runs) {
        Histogram all = runs.get(0).copy();
        for (Histogram h : runs.subList(1, runs.size())) {
            all.add(h);
        }
        return new BenchReport.Latency(all.getValueAtPercentile(50), all.getValueAtPercentile(99),
                all.getValueAtPercentile(99.9), all.getMaxValue(), all.getTotalCount());
    }
}
