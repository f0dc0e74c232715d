package dev.schedpolicy.engine.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The report's charts as inline SVG, drawn here: no script, no library, every label escaped. */
final class HtmlCharts {
    private static final String[] COLORS = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
        "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
    /** Chart geometry: size, and the plot area's left/right/top/bottom margins (the Chromium test checks the clip). */
    static final int W = 640;
    static final int H = 360;
    static final int L = 60;
    static final int R = 150;
    static final int T = 20;
    static final int B = 50;
    private static final double POINT_R = 3.5;

    private HtmlCharts() {
    }

    /** Victim kept % (y) against background CPU share of the free CPU (x): one line per policy, one point per load. */
    static String tradeoffChart(final BenchReport r) {
        List<Series> series = new ArrayList<>();
        for (String p : r.policies()) {
            Series sr = new Series(p);
            for (double l : r.loads()) {
                r.cell(p, l).ifPresent(c -> {
                    if (c.keptPct() != null && c.backgroundFreeCpuPct() != null) {
                        sr.points.add(new double[] {c.backgroundFreeCpuPct().mean(), c.keptPct().mean(), c.keptPct().ciHalfWidth()});
                    }
                });
            }
            series.add(sr);
        }
        // kept % and the share can pass 100 (a victim faster than its baseline): the axes grow to hold every point,
        // with room for its marker; only the whiskers are clipped
        double maxX = series.stream().flatMap(s -> s.points.stream()).mapToDouble(pt -> pt[0]).max().orElse(0);
        double maxY = series.stream().flatMap(s -> s.points.stream()).mapToDouble(pt -> pt[1]).max().orElse(0);
        return chart("tradeoff", "Victim kept % vs background share of the free CPU (points: loads)",
                "background CPU, % of what the victim left free", "victim kept %", series, 0, axisTop(maxX, 100), 0,
                axisTop(maxY, 105));
    }

    /** {@code least} when it leaves 5 units above {@code highest}, else the next multiple of 10 that does. */
    static double axisTop(final double highest, final double least) {
        return highest + 5 <= least ? least : Math.ceil((highest + 5) / 10) * 10;
    }

    /** The headline metric against load, one line per policy. */
    static String loadChart(final BenchReport r, final Metric metric) {
        List<Series> series = new ArrayList<>();
        double maxY = 105;
        double maxX = 0;
        for (String p : r.policies()) {
            Series sr = new Series(p);
            for (double l : r.loads()) {
                Stat st = metric.of(r.cell(p, l).orElse(null));
                if (st != null) {
                    sr.points.add(new double[] {l, st.mean(), st.ciHalfWidth()});
                    maxY = Math.max(maxY, st.mean() + st.ciHalfWidth());
                }
                maxX = Math.max(maxX, l);
            }
            series.add(sr);
        }
        return chart("by-load", metric.title() + " by load", "load", metric.title(), series, 0, Math.max(1, maxX), 0,
                Math.ceil(maxY / 10) * 10);
    }

    /** Grouped bars (log scale) of p50/p99/p99.9/max per policy at the highest load. */
    static String latencyChart(final BenchReport r) {
        double load = r.loads().stream().mapToDouble(Double::doubleValue).max().orElse(0);
        List<BenchReport.Cell> cells = new ArrayList<>();
        for (String p : r.policies()) {
            r.cell(p, load).filter(c -> c.latencyUs() != null).ifPresent(cells::add);
        }
        double max = cells.stream().mapToDouble(c -> c.latencyUs().max()).max().orElse(10);
        double top = Math.max(1, Math.ceil(Math.log10(Math.max(10, max))));
        StringBuilder s = svgOpen("latency-chart", "Wakeup latency at load " + TextTable.formatLoad(load) + " (µs, log scale)");
        int pw = W - L - R;
        int ph = H - T - B;
        for (int d = 0; d <= top; d++) {
            double y = T + ph - ph * d / top;
            s.append(line(L, y, L + pw, y, "#eee")).append(text(L - 5, y + 4, "end", fmt(Math.pow(10, d))));
        }
        String[] names = {"p50", "p99", "p99.9", "max"};
        double group = cells.isEmpty() ? pw : (double) pw / cells.size();
        for (int i = 0; i < cells.size(); i++) {
            BenchReport.Latency l = cells.get(i).latencyUs();
            double[] v = {l.p50(), l.p99(), l.p999(), l.max()};
            for (int k = 0; k < 4; k++) {
                double hgt = ph * Math.log10(Math.max(1, v[k])) / top;
                double x = L + i * group + group * 0.1 + k * group * 0.2;
                s.append(String.format(Locale.ROOT, "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>%s</title></rect>",
                        x, T + ph - hgt, group * 0.18, hgt, COLORS[k], HtmlText.esc(cells.get(i).policy() + " " + names[k] + " " + fmt(v[k]) + " µs")));
            }
            s.append(text(L + i * group + group / 2, T + ph + 15, "middle", cells.get(i).policy()));
        }
        for (int k = 0; k < 4; k++) {
            s.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>", L + pw + 10, T + 10 + k * 16, COLORS[k]))
                    .append(text(L + pw + 25, T + 19 + k * 16, "start", names[k]));
        }
        return s.append(axes(pw, ph)).append("</svg>\n").toString();
    }

    private static final class Series {
        final String name;
        final List<double[]> points = new ArrayList<>();

        Series(final String name) {
            this.name = name;
        }
    }

    private static String chart(final String id, final String title, final String xLabel, final String yLabel,
            final List<Series> series, final double x0, final double x1, final double y0, final double y1) {
        StringBuilder s = svgOpen(id, title);
        int pw = W - L - R;
        int ph = H - T - B;
        for (int i = 0; i <= 5; i++) {
            double yv = y0 + (y1 - y0) * i / 5;
            double y = T + ph - ph * i / 5.0;
            s.append(line(L, y, L + pw, y, "#eee")).append(text(L - 5, y + 4, "end", fmt(yv)));
            double xv = x0 + (x1 - x0) * i / 5;
            double x = L + pw * i / 5.0;
            s.append(text(x, T + ph + 15, "middle", fmt(xv)));
        }
        s.append(text(L + pw / 2.0, H - 10, "middle", xLabel));
        s.append(String.format(Locale.ROOT, "<text x=\"14\" y=\"%d\" transform=\"rotate(-90 14 %d)\" text-anchor=\"middle\" font-size=\"11\">%s</text>",
                T + ph / 2, T + ph / 2, HtmlText.esc(yLabel)));
        // a wide CI would draw its whisker over the axes and out of the chart: whiskers and lines stay in the plot area
        // (widened by a point's radius left and right, so a whisker at the first or last load stays whole)
        String clip = "clip-" + id;
        s.append(String.format(Locale.ROOT, "<defs><clipPath id=\"%s\"><rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\"/>"
                + "</clipPath></defs>", clip, L - POINT_R, T, pw + 2 * POINT_R, ph));
        for (int i = 0; i < series.size(); i++) {
            Series sr = series.get(i);
            String color = COLORS[i % COLORS.length];
            StringBuilder path = new StringBuilder();
            StringBuilder whiskers = new StringBuilder();
            StringBuilder points = new StringBuilder();
            for (double[] p : sr.points) {
                double x = L + pw * (p[0] - x0) / (x1 - x0);
                double y = T + ph - ph * (p[1] - y0) / (y1 - y0);
                double e = ph * p[2] / (y1 - y0);
                path.append(path.length() == 0 ? "M" : "L").append(String.format(Locale.ROOT, "%.1f %.1f ", x, y));
                if (p[2] > 0) {
                    whiskers.append(line(x, y - e, x, y + e, color));
                }
                points.append(String.format(Locale.ROOT, "<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\"><title>%s</title></circle>",
                        x, y, POINT_R, color, HtmlText.esc(sr.name + ": " + fmt(p[0]) + ", " + fmt(p[1]) + " ± " + fmt(p[2]))));
            }
            s.append("<g class=\"series\" data-policy=\"").append(HtmlText.esc(sr.name)).append("\">");
            s.append("<g class=\"ci\" clip-path=\"url(#").append(clip).append(")\">").append(whiskers).append("</g>");
            if (path.length() > 0) {
                s.append("<path d=\"").append(path.toString().trim()).append("\" fill=\"none\" stroke=\"").append(color)
                        .append("\" stroke-width=\"1.5\" clip-path=\"url(#").append(clip).append(")\"/>");
            }
            s.append(points).append("</g>");
            s.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>", L + pw + 10, T + 10 + i * 16, color))
                    .append(text(L + pw + 25, T + 19 + i * 16, "start", sr.name));
        }
        return s.append(axes(pw, ph)).append("</svg>\n").toString();
    }

    private static StringBuilder svgOpen(final String id, final String title) {
        return new StringBuilder("<h3>").append(HtmlText.esc(title)).append("</h3>\n<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" id=\"")
                .append(id).append("\" width=\"").append(W).append("\" height=\"").append(H).append("\" viewBox=\"0 0 ")
                .append(W).append(' ').append(H).append("\" role=\"img\"><title>").append(HtmlText.esc(title)).append("</title>");
    }

    private static String axes(final int pw, final int ph) {
        return line(L, T, L, T + ph, "#333") + line(L, T + ph, L + pw, T + ph, "#333");
    }

    private static String line(final double x1, final double y1, final double x2, final double y2, final String color) {
        return String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>", x1, y1, x2, y2, color);
    }

    private static String text(final double x, final double y, final String anchor, final String t) {
        return String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"11\">%s</text>", x, y, anchor, HtmlText.esc(t));
    }

    private static String fmt(final double v) {
        return Math.abs(v - Math.rint(v)) < 1e-9 ? Long.toString(Math.round(v)) : String.format(Locale.ROOT, "%.1f", v);
    }
}
