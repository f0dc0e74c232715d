package dev.schedpolicy.engine.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * Renders report.html in headless Chromium (installed by .ci/run: apt-get install -y chromium) and checks the
 * DOM Chromium built: tables and charts present, a victim command with {@code <script>} shown as text.
 */
@EnabledOnOs(OS.LINUX)
class HtmlReportChromiumITest {
    static Path chromium() {
        for (String c : List.of("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")) {
            if (Files.isExecutable(Path.of(c))) {
                return Path.of(c);
            }
        }
        throw new AssertionError("headless Chromium is needed for this test: apt-get install -y chromium");
    }

    /** Chromium with TMPDIR in the test's own directory: it leaves an org.chromium.Chromium.XXXXXX directory there. */
    private static ProcessBuilder chromiumIn(final Path dir, final String... args) {
        java.util.List<String> command = new java.util.ArrayList<>();
        command.add(chromium().toString());
        command.addAll(java.util.List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().put("TMPDIR", dir.toString());
        return pb;
    }

    @Test
    void shouldRenderTablesChartsAndShowScriptAsText(@TempDir final Path dir) throws Exception {
        Path html = Files.writeString(dir.resolve("report.html"), HtmlReport.render(ReportFixtures.report(ReportFixtures.EVIL)));
        Process p = chromiumIn(dir, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--user-data-dir=" + dir.resolve("profile"), "--dump-dom", html.toUri().toString())
                .redirectError(dir.resolve("chromium.err").toFile()).start();
        String dom = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(dom).as(Files.readString(dir.resolve("chromium.err"))).contains("</html>");
        assertThat(dom).contains("<table class=\"metric\" data-metric=\"kept\"", "<svg", "id=\"tradeoff\"", "id=\"by-load\"",
                "id=\"latency-chart\"", "class=\"point\"");
        assertThat(count(dom, "<table")).isGreaterThanOrEqualTo(4);
        // the verdict per topology comes first, then every topology's own charts, each chart id once
        assertThat(dom.indexOf("id=\"verdicts\"")).isPositive().isLessThan(dom.indexOf("<svg"));
        assertThat(dom).contains("Topology same-group", "Topology other-cgroup", "id=\"tradeoff-other-cgroup\"",
                "clip-path=\"url(#clip-by-load-other-cgroup)\"");
        assertThat(count(dom, "id=\"tradeoff\"")).isEqualTo(1);
        // the user's <script> is text in the DOM, never an element
        assertThat(dom).contains("&lt;script&gt;alert('x')&lt;/script&gt;");
        assertThat(dom.toLowerCase()).doesNotContain("<script");
    }

    /**
     * A CI of 40 ± 87 points: its whisker runs from below 0 to above the top of both charts. The DOM must carry the
     * clip, and in Chromium's rendering of each chart no pixel of the whisker's colour may show above or below the
     * plot area in its column, while inside the plot area the whisker reaches the edges (so the test sees it at all).
     */
    @Test
    void shouldClipWideConfidenceWhiskersToThePlotArea(@TempDir final Path dir) throws Exception {
        BenchReport report = ReportFixtures.report("cpu-victim", true);
        String html = HtmlReport.render(report);
        String dom = dumpDom(dir, Files.writeString(dir.resolve("wide.html"), html));
        for (String id : List.of("tradeoff", "by-load")) {
            assertThat(dom).contains("<clipPath id=\"clip-" + id + "\">", "<g class=\"ci\" clip-path=\"url(#clip-" + id + ")\">");
        }
        int plotTop = HtmlReport.T;
        int plotBottom = HtmlReport.H - HtmlReport.B;
        // default (first colour) at load 2: x is its background share of the free CPU (tradeoff, x 0..100), or load 2
        // of 0..2 (by-load)
        int plotWidth = HtmlReport.W - HtmlReport.L - HtmlReport.R;
        double share = report.cell("default", 2).orElseThrow().backgroundFreeCpuPct().mean();
        java.util.Map<String, Integer> whiskerX = java.util.Map.of(
                "tradeoff", (int) Math.round(HtmlReport.L + plotWidth * share / 100), "by-load", HtmlReport.L + plotWidth);
        for (var e : whiskerX.entrySet()) {
            java.awt.image.BufferedImage img = screenshot(dir, e.getKey(), svgOf(html, e.getKey()));
            assertThat(img.getWidth()).isEqualTo(HtmlReport.W);
            int x = e.getValue();
            if (e.getKey().equals("tradeoff")) { // by-load scales its y axis to the top of the highest whisker
                assertThat(whiskerPixels(img, x, plotTop + 1, plotTop + 6)).as(e.getKey() + ": whisker drawn up to the top edge")
                        .isPositive();
            }
            assertThat(whiskerPixels(img, x, plotBottom - 6, plotBottom - 1)).as(e.getKey() + ": whisker drawn down to the x axis")
                    .isPositive();
            assertThat(whiskerPixels(img, x, 0, plotTop - 2)).as(e.getKey() + ": whisker above the plot area").isZero();
            assertThat(whiskerPixels(img, x, plotBottom + 2, img.getHeight() - 1)).as(e.getKey() + ": whisker below the x axis")
                    .isZero();
        }
    }

    /** Pixels in columns x-1..x+1, rows y0..y1, that have the blue of the first series (#1f77b4, also blended). */
    private static int whiskerPixels(final java.awt.image.BufferedImage img, final int x, final int y0, final int y1) {
        int n = 0;
        for (int cx = x - 1; cx <= Math.min(x + 1, img.getWidth() - 1); cx++) {
            for (int y = Math.max(0, y0); y <= Math.min(y1, img.getHeight() - 1); y++) {
                int rgb = img.getRGB(cx, y);
                int r = rgb >> 16 & 0xff;
                int g = rgb >> 8 & 0xff;
                int b = rgb & 0xff;
                if (b - r > 30 && b - g > 10) {
                    n++;
                }
            }
        }
        return n;
    }

    private static String svgOf(final String html, final String id) {
        int start = html.lastIndexOf("<svg", html.indexOf("id=\"" + id + "\""));
        return html.substring(start, html.indexOf("</svg>", start) + "</svg>".length());
    }

    private static java.awt.image.BufferedImage screenshot(final Path dir, final String name, final String svg) throws Exception {
        Path file = Files.writeString(dir.resolve(name + ".svg"), svg);
        Path png = dir.resolve(name + ".png");
        Process p = chromiumIn(dir, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--hide-scrollbars", "--force-device-scale-factor=1", "--window-size=" + HtmlReport.W + "," + HtmlReport.H,
                "--user-data-dir=" + dir.resolve("profile-" + name), "--screenshot=" + png, file.toUri().toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve(name + ".log").toFile()).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(png).as(Files.readString(dir.resolve(name + ".log"))).exists();
        return javax.imageio.ImageIO.read(png.toFile());
    }

    private static String dumpDom(final Path dir, final Path html) throws Exception {
        Process p = chromiumIn(dir, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--user-data-dir=" + dir.resolve("profile-dom"), "--dump-dom", html.toUri().toString())
                .redirectError(dir.resolve("dom.err").toFile()).start();
        String dom = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(dom).as(Files.readString(dir.resolve("dom.err"))).contains("</html>");
        return dom;
    }

    private static int count(final String s, final String needle) {
        int n = 0;
        for (int i = s.indexOf(needle); i >= 0; i = s.indexOf(needle, i + 1)) {
            n++;
        }
        return n;
    }
}
