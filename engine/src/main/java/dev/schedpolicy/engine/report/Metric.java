package dev.schedpolicy.engine.report;

import java.util.List;
import java.util.function.Function;

/** The cell metrics the text and HTML tables can show, with how to read each from a cell. */
public enum Metric {
    KEPT("victim kept % of unloaded work rate (mean ± 95% CI)", "%", BenchReport.Cell::keptPct),
    RUN_QUEUE("victim run-queue wait share % (schedstat)", "%", BenchReport.Cell::runQueueSharePct),
    BACKGROUND_FREE("background CPU as % of the CPU the victim left free", "%", BenchReport.Cell::backgroundFreeCpuPct),
    BACKGROUND_ONE_CPU("background work rate as % of one unrestricted thread", "%", BenchReport.Cell::backgroundOfOneCpuPct),
    TOTAL_CPU("total CPU use as % of ideal (victim + background) / (ncpu x wall)", "%", BenchReport.Cell::totalCpuPct),
    PSI("PSI cpu some % of the window", "%", BenchReport.Cell::psiCpuSomePct),
    THROTTLED("throttled quota periods %", "%", BenchReport.Cell::throttledPct),
    WALL_OVER_CPU("victim wall/CPU ratio (real over user)", "x", BenchReport.Cell::wallOverCpu),
    LATENCY_P50("victim wakeup latency p50 (µs, all wakeups of the cell)", "µs", c -> latency(c, BenchReport.Latency::p50)),
    LATENCY_P99("victim wakeup latency p99 (µs, all wakeups of the cell)", "µs", c -> latency(c, BenchReport.Latency::p99)),
    LATENCY_P999("victim wakeup latency p99.9 (µs, all wakeups of the cell)", "µs",
            c -> latency(c, BenchReport.Latency::p999));

    private final String title;
    private final String unit;
    private final Function<BenchReport.Cell, Stat> getter;

    Metric(final String title, final String unit, final Function<BenchReport.Cell, Stat> getter) {
        this.title = title;
        this.unit = unit;
        this.getter = getter;
    }

    /** A percentile of all the cell's wakeups: one number, no CI. */
    public boolean isLatency() {
        return this == LATENCY_P50 || this == LATENCY_P99 || this == LATENCY_P999;
    }

    private static Stat latency(final BenchReport.Cell c, final java.util.function.ToDoubleFunction<BenchReport.Latency> f) {
        if (c.latencyUs() == null) {
            return null;
        }
        double v = f.applyAsDouble(c.latencyUs());
        return new Stat(v, 0, 1, v, v, List.of(v));
    }

    public String title() {
        return title;
    }

    public String unit() {
        return unit;
    }

    public Stat of(final BenchReport.Cell cell) {
        return cell == null ? null : getter.apply(cell);
    }

    /** The metrics worth a table for this report: those with at least one value. */
    public static List<Metric> present(final BenchReport report) {
        return java.util.Arrays.stream(values())
                .filter(m -> report.cells().stream().anyMatch(c -> m.of(c) != null))
                .toList();
    }
}
