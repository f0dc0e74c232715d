package dev.schedpolicy.engine.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ReportRenderingTest {
    @Test
    void shouldRoundTripJsonWithSchemaVersionAndNoNaN() {
        BenchReport r = ReportFixtures.report("cpu-victim");
        String json = ReportJson.toJson(r);
        assertThat(json).contains("\"schemaVersion\" : 2").doesNotContain("NaN");
        assertThat(ReportJson.fromJson(json)).isEqualTo(r);
    }

    @Test
    void shouldRefuseANewerSchema() {
        String json = ReportJson.toJson(ReportFixtures.report("v")).replace("\"schemaVersion\" : 2", "\"schemaVersion\" : 3");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ReportJson.fromJson(json)).hasMessageContaining("newer");
    }

    @Test
    void shouldStartWithTheVerdictPerTopologyAndShowEachTopologysTables() {
        String t = TextTable.render(ReportFixtures.report("v"));
        List<String> lines = t.lines().toList();
        assertThat(lines.get(0)).startsWith("Verdict (victim >= 99% within its 95% CI and >= 97% on average, background >= 95% of the free CPU");
        assertThat(lines.get(1)).isEqualTo("  same-group: no policy protects; fail default (victim 40.0% at load 2), "
                + "nice19 (victim 91.0% at load 2), idle (victim 93.0% at load 2)");
        assertThat(lines.get(2)).startsWith("  other-cgroup: ");
        assertThat(t).contains("topologies: same-group, other-cgroup", "=== topology same-group ===",
                "=== topology other-cgroup ===");
        // other-cgroup's own cells, not the first topology's: idle there is kept[0][l] + 2
        String otherCgroup = t.substring(t.indexOf("=== topology other-cgroup ==="));
        assertThat(otherCgroup).containsPattern("idle\\s+64\\.0±2\\.5\\s+42\\.0±2\\.5");
    }

    @Test
    void shouldRenderPoliciesAsRowsAndLoadsAsColumns() {
        String t = TextTable.table(ReportFixtures.report("v").forTopology("same-group"), Metric.KEPT);
        List<String> lines = t.lines().toList();
        assertThat(lines.get(1)).matches("policy \\\\ load\\s+1\\s+2");
        assertThat(lines.get(3)).matches("default\\s+62\\.0±2\\.5\\s+40\\.0±2\\.5");
        assertThat(lines.get(5)).startsWith("idle");
    }

    @Test
    void shouldComputeStudentTConfidenceIntervals() {
        Stat s = Stat.of(List.of(90.0, 92.0, 94.0));
        assertThat(s.mean()).isEqualTo(92.0);
        // sd 2, t(0.975, 2) = 4.3027, half-width = 4.3027 * 2 / sqrt(3)
        assertThat(s.ciHalfWidth()).isCloseTo(4.9683, org.assertj.core.data.Offset.offset(1e-3));
        assertThat(Stat.of(List.of(5.0)).ciHalfWidth()).isZero();
        assertThat(Stat.orNull(List.of(Double.NaN))).isNull();
    }

    @Test
    void shouldEscapeEveryUserString() {
        String html = HtmlReport.render(ReportFixtures.report(ReportFixtures.EVIL));
        assertThat(html).doesNotContain("<script").contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;");
        assertThat(html).doesNotContain("src=", "href=", "<link", "@import").contains("<svg", "</html>");
    }
}
