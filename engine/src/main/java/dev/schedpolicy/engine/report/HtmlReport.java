package dev.schedpolicy.engine.report;

import java.util.List;
import java.util.Locale;

/**
 * One self-contained HTML file: inline CSS, charts as inline SVG drawn here, no script, no network.
 * Every string that came from a user or a scenario file goes through {@link #esc}.
 */
public final class HtmlReport {
    /** Chart geometry, see {@link HtmlCharts} (the Chromium test checks the clip against it). */
    static final int W = HtmlCharts.W;
    static final int H = HtmlCharts.H;
    static final int L = HtmlCharts.L;
    static final int R = HtmlCharts.R;
    static final int T = HtmlCharts.T;
    static final int B = HtmlCharts.B;

    private HtmlReport() {
    }

    public static String render(final BenchReport r) {
        BenchReport.ScenarioInfo s = r.scenario();
        StringBuilder h = new StringBuilder(16_384);
        h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
                .append("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">")
                .append("<title>schedpolicy bench: ").append(esc(s.name())).append("</title><style>")
                .append("body{font-family:system-ui,sans-serif;margin:2em;color:#222;max-width:1100px}")
                .append("table{border-collapse:collapse;margin:.5em 0 1.5em}th,td{border:1px solid #ccc;padding:.25em .6em;text-align:right}")
                .append("th:first-child,td:first-child{text-align:left}th{background:#f3f3f3}")
                .append(".partial{background:#fdd;border:1px solid #c00;padding:.5em}.warn{color:#a60}")
                .append("code{background:#f5f5f5;padding:0 .2em}svg{border:1px solid #eee;margin:.5em 0}")
                .append("dl{display:grid;grid-template-columns:max-content auto;gap:.2em 1em}dt{font-weight:bold}")
                .append("</style></head><body>\n");
        h.append("<h1>Benchmark: ").append(esc(s.title())).append("</h1>\n");
        if (r.partial()) {
            h.append("<p class=\"partial\" id=\"partial\">Partial results: ").append(esc(r.partialReason())).append("</p>\n");
        }
        if (!r.verdicts().isEmpty()) {
            h.append("<h2>Verdict</h2>\n<p>Protects = kept the victim at ").append(num(BenchReport.PROTECT_KEPT_PCT))
                    .append("% or more within the 95% confidence interval (and ").append(num(BenchReport.PROTECT_KEPT_FLOOR_PCT))
                    .append("% or more on average) and let the background use ").append(num(BenchReport.PROTECT_BACKGROUND_PCT))
                    .append("% or more of the CPU the victim left free, at every load.</p>\n<ul id=\"verdicts\">");
            for (BenchReport.Verdict v : r.verdicts()) {
                h.append("<li>");
                if (v.title() == null) {
                    h.append(esc(v.line())); // a report from before issue 18
                } else {
                    h.append("<b>").append(esc(v.heading())).append("</b>: ").append(esc(v.outcome()));
                    if (v.note() != null) {
                        h.append("<br>").append(esc(v.note()));
                    }
                    if (v.expected() != null) {
                        h.append("<br><i>expected here:</i> ").append(esc(v.expected()));
                    }
                    v.differs().forEach(d -> h.append("<br><span class=\"warn\">this run differs: ").append(esc(d))
                            .append("</span>"));
                }
                h.append("</li>");
            }
            h.append("</ul>\n");
        }
        h.append("<dl id=\"summary\">");
        dl(h, "scenario", s.name());
        dl(h, "what it reproduces", s.description());
        if (r.verdicts().isEmpty()) {
            dl(h, "expect", s.expect()); // with verdicts, each topology's own expectation stands under its verdict
        }
        dl(h, "victim", s.victim());
        dl(h, "background", s.background());
        dl(h, "policy applies to", s.policyTarget().toLowerCase(Locale.ROOT));
        dl(h, "load", TextTable.loadMeaning(r));
        BenchReport.Machine m = r.machine();
        dl(h, "machine", m.hostname() + ", " + m.cpus() + " CPUs, Linux " + m.kernel() + " " + m.arch() + ", Java "
                + m.javaVersion() + (m.loadAverageAtStart() == null ? "" : ", load average at start " + m.loadAverageAtStart()));
        BenchReport.Run run = r.run();
        dl(h, "run", run.preset() + " preset, " + run.repetitions() + " repetitions, " + run.cellsDone() + "/"
                + run.cellsPlanned() + " runs, " + String.format(Locale.ROOT, "%.1f s", run.durationSeconds())
                + ", seed " + run.seed() + ", started " + run.startedAt());
        dl(h, "topologies", String.join(", ", r.topologies()));
        dl(h, "task groups", m.taskGroupNote());
        h.append("</dl>\n");

        List<String> topologies = r.topologies().isEmpty() ? List.of("") : r.topologies();
        for (int i = 0; i < topologies.size(); i++) {
            String t = topologies.get(i);
            String section = topologySection(t.isEmpty() ? r : r.forTopology(t), t, topologies.size() > 1);
            // the first topology keeps the plain element ids; later ones get the topology as suffix
            h.append(i == 0 ? section : section.replaceAll("(id=\"|clip-)(tradeoff|by-load|latency-chart|latency)\\b",
                    "$1$2-" + t));
        }
        h.append("<h2>Applied policies</h2>\n<table id=\"applied\"><tr><th>topology</th><th>policy</th><th>load</th><th>what the kernel reported</th></tr>");
        for (BenchReport.Cell c : r.cells()) {
            h.append("<tr><td>").append(esc(c.topology() == null ? "" : c.topology())).append("</td><td>")
                    .append(esc(c.policy())).append("</td><td>").append(TextTable.formatLoad(c.load()))
                    .append("</td><td style=\"text-align:left\">").append(esc(c.applied())).append("</td></tr>");
        }
        h.append("</table>\n");
        if (!r.warnings().isEmpty()) {
            h.append("<h2>Warnings</h2>\n<ul id=\"warnings\">");
            r.warnings().forEach(w -> h.append("<li class=\"warn\">").append(esc(w)).append("</li>"));
            h.append("</ul>\n");
        }
        h.append("<p>schema version ").append(r.schemaVersion()).append(", generated by ").append(esc(r.tool()))
                .append("</p>\n</body></html>\n");
        return h.toString();
    }

    private static String topologySection(final BenchReport r, final String topology, final boolean several) {
        StringBuilder h = new StringBuilder();
        if (several) {
            h.append("<h2 class=\"topology\">Topology ").append(esc(topology)).append("</h2>\n");
        }
        h.append(several ? "<h3>Charts</h3>\n" : "<h2>Charts</h2>\n");
        boolean victim = "keptPct".equals(r.scenario().metric());
        if (victim) {
            h.append(HtmlCharts.tradeoffChart(r));
        }
        h.append(HtmlCharts.loadChart(r, victim ? Metric.KEPT : Metric.BACKGROUND_ONE_CPU));
        if (r.cells().stream().anyMatch(c -> c.latencyUs() != null)) {
            h.append(HtmlCharts.latencyChart(r));
        }
        h.append(several ? "<h3>Tables</h3>\n" : "<h2>Tables</h2>\n")
                .append("<p>Policies as rows, loads as columns; mean ± 95% confidence half-width over ")
                .append(r.run().repetitions()).append(" repetitions.</p>\n");
        for (Metric metric : Metric.present(r)) {
            h.append(table(r, metric));
        }
        if (r.cells().stream().anyMatch(c -> c.latencyUs() != null)) {
            h.append(latencyTable(r));
        }
        return h.toString();
    }

    private static void dl(final StringBuilder h, final String k, final String v) {
        if (v != null && !v.isBlank()) {
            h.append("<dt>").append(esc(k)).append("</dt><dd>").append(esc(v)).append("</dd>");
        }
    }

    private static String table(final BenchReport r, final Metric metric) {
        StringBuilder h = new StringBuilder("<h3>").append(esc(metric.title())).append("</h3>\n<table class=\"metric\" data-metric=\"")
                .append(metric.name().toLowerCase(Locale.ROOT)).append("\"><tr><th>policy \\ load</th>");
        for (double l : r.loads()) {
            h.append("<th>").append(TextTable.formatLoad(l)).append("</th>");
        }
        h.append("</tr>");
        for (String p : r.policies()) {
            h.append("<tr><td>").append(esc(p)).append("</td>");
            for (double l : r.loads()) {
                h.append("<td>").append(esc(TextTable.format(metric.of(r.cell(p, l).orElse(null)), metric))).append("</td>");
            }
            h.append("</tr>");
        }
        return h.append("</table>\n").toString();
    }

    private static String latencyTable(final BenchReport r) {
        StringBuilder h = new StringBuilder("<h3>victim wakeup latency (µs)</h3>\n<table id=\"latency\"><tr><th>policy</th>"
                + "<th>load</th><th>p50</th><th>p99</th><th>p99.9</th><th>max</th><th>wakeups</th></tr>");
        for (BenchReport.Cell c : r.cells()) {
            if (c.latencyUs() != null) {
                BenchReport.Latency l = c.latencyUs();
                h.append("<tr><td>").append(esc(c.policy())).append("</td><td>").append(TextTable.formatLoad(c.load()))
                        .append("</td><td>").append(num(l.p50())).append("</td><td>").append(num(l.p99()))
                        .append("</td><td>").append(num(l.p999())).append("</td><td>").append(num(l.max())).append("</td><td>").append(l.wakeups()).append("</td></tr>");
            }
        }
        return h.append("</table>\n").toString();
    }


    private static String num(final double v) {
        return HtmlText.num(v);
    }

    /** Escapes text for HTML element content and double-quoted attributes. */
    public static String esc(final String s) {
        return HtmlText.esc(s);
    }
}
