package dev.schedpolicy.engine.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Seed-style text tables: policies as rows, loads as columns, one table per metric. */
public final class TextTable {
    private TextTable() {
    }

    /** The main table (kept %, or background % of one CPU when there is no victim) and then the others. */
    public static String render(final BenchReport report) {
        StringBuilder out = new StringBuilder();
        BenchReport.ScenarioInfo s = report.scenario();
        out.append(verdicts(report));
        out.append("Scenario ").append(s.name()).append(": ").append(s.title()).append('\n');
        out.append("victim: ").append(s.victim()).append(" | background: ").append(s.background())
                .append(" | policy on: ").append(s.policyTarget()).append(" | load = ").append(loadMeaning(report))
                .append(report.topologies().isEmpty() ? "" : " | topologies: " + String.join(", ", report.topologies()))
                .append('\n');
        if (report.partial()) {
            out.append("PARTIAL RESULTS: ").append(report.partialReason()).append('\n');
        }
        if (!report.warnings().isEmpty()) {
            // above the tables, one line per kind: the report keeps each warning in full
            out.append('\n');
            WarningGroups.lines(report.warnings()).forEach(w -> out.append("WARNING: ").append(w).append('\n'));
        }
        List<String> topologies = report.topologies().isEmpty() ? List.of("") : report.topologies();
        for (String t : topologies) {
            BenchReport view = t.isEmpty() ? report : report.forTopology(t);
            if (topologies.size() > 1) {
                out.append("\n=== topology ").append(t).append(" ===\n");
            }
            for (Metric m : Metric.present(view)) {
                out.append('\n').append(table(view, m));
            }
        }
        return out.toString();
    }

    /**
     * The first lines: per topology, in the order of the user's questions, which policies protected the victim
     * (see {@link BenchReport.Verdict}), what limits the answer there, and what the scenario expected there with
     * any difference this run showed; empty when the scenario has no verdict (no victim, no background, or the
     * policy is on the victim).
     */
    public static String verdicts(final BenchReport report) {
        if (report.verdicts().isEmpty()) {
            return "";
        }
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "Verdict (victim >= %.0f%% within its 95%% CI and"
                + " >= %.0f%% on average, background >= %.0f%% of the free CPU, at every load):%n", BenchReport.PROTECT_KEPT_PCT,
                BenchReport.PROTECT_KEPT_FLOOR_PCT, BenchReport.PROTECT_BACKGROUND_PCT));
        int n = 0;
        for (BenchReport.Verdict v : report.verdicts()) {
            n++;
            if (v.title() == null) {
                out.append("  ").append(v.line()).append('\n'); // a report from before issue 18
                continue;
            }
            out.append(String.format(Locale.ROOT, "%d. %s%n", n, v.heading()));
            out.append("   ").append(v.outcome()).append('\n');
            if (v.note() != null) {
                out.append("   ").append(v.note()).append('\n');
            }
            if (v.expected() != null) {
                out.append("   expected here: ").append(v.expected()).append('\n');
            }
            v.differs().forEach(d -> out.append("   this run differs: ").append(d).append('\n'));
        }
        return out.append('\n').toString();
    }

    static String loadMeaning(final BenchReport report) {
        return "VICTIM_WORKERS".equals(report.scenario().loadAxis()) ? "victim threads / ncpu"
                : "background copies / copies-per-load (ncpu=" + report.machine().cpus() + ")";
    }

    public static String table(final BenchReport report, final Metric metric) {
        List<String> header = new ArrayList<>();
        header.add("policy \\ load");
        for (double l : report.loads()) {
            header.add(formatLoad(l));
        }
        List<List<String>> rows = new ArrayList<>();
        rows.add(header);
        for (String p : report.policies()) {
            List<String> row = new ArrayList<>();
            row.add(p);
            for (double l : report.loads()) {
                row.add(format(metric.of(report.cell(p, l).orElse(null)), metric));
            }
            rows.add(row);
        }
        int[] widths = new int[header.size()];
        for (List<String> r : rows) {
            for (int i = 0; i < r.size(); i++) {
                widths[i] = Math.max(widths[i], r.get(i).length());
            }
        }
        StringBuilder out = new StringBuilder(metric.title()).append('\n');
        for (int r = 0; r < rows.size(); r++) {
            List<String> row = rows.get(r);
            for (int i = 0; i < row.size(); i++) {
                String cell = row.get(i);
                out.append(i == 0 ? pad(cell, widths[i], false) : "  " + pad(cell, widths[i], true));
            }
            out.append('\n');
            if (r == 0) {
                int total = 0;
                for (int w : widths) {
                    total += w + 2;
                }
                out.append("-".repeat(total - 2)).append('\n');
            }
        }
        return out.toString();
    }

    public static String formatLoad(final double load) {
        return load == Math.rint(load) ? Long.toString((long) load) : String.format(Locale.ROOT, "%.2f", load);
    }

    static String format(final Stat s, final Metric metric) {
        if (s == null) {
            return "-";
        }
        String fmt = metric == Metric.WALL_OVER_CPU ? "%.2f" : metric.isLatency() ? "%.0f" : "%.1f";
        String v = String.format(Locale.ROOT, fmt, s.mean());
        if (s.n() > 1 && !metric.isLatency()) {
            v += "±" + String.format(Locale.ROOT, fmt, s.ciHalfWidth());
        }
        return v;
    }

    private static String pad(final String s, final int width, final boolean right) {
        String fill = " ".repeat(Math.max(0, width - s.length()));
        return right ? fill + s : s + fill;
    }
}
