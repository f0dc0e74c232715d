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

    @Test
    void shouldRenderTablesChartsAndShowScriptAsText(@TempDir final Path dir) throws Exception {
        Path html = Files.writeString(dir.resolve("report.html"), HtmlReport.render(ReportFixtures.report(ReportFixtures.EVIL)));
        Process p = new ProcessBuilder(chromium().toString(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--user-data-dir=" + dir.resolve("profile"), "--dump-dom", html.toUri().toString())
                .redirectError(dir.resolve("chromium.err").toFile()).start();
        String dom = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(dom).as(Files.readString(dir.resolve("chromium.err"))).contains("</html>");
        assertThat(dom).contains("<table class=\"metric\" data-metric=\"kept\"", "<svg", "id=\"tradeoff\"", "id=\"by-load\"",
                "id=\"latency-chart\"", "class=\"point\"");
        assertThat(count(dom, "<table")).isGreaterThanOrEqualTo(4);
        // the user's <script> is text in the DOM, never an element
        assertThat(dom).contains("&lt;script&gt;alert('x')&lt;/script&gt;");
        assertThat(dom.toLowerCase()).doesNotContain("<script");
    }

    private static int count(final String s, final String needle) {
        int n = 0;
        for (int i = s.indexOf(needle); i >= 0; i = s.indexOf(needle, i + 1)) {
            n++;
        }
        return n;
    }
}
