package dev.schedpolicy.jenkins;

import static org.assertj.core.api.Assertions.assertThat;

import hudson.model.FreeStyleBuild;
import hudson.model.FreeStyleProject;
import org.htmlunit.Page;
import org.htmlunit.html.HtmlPage;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

/** The benchmark's build action and pages, from a stored report (the benchmark itself is tested in engine/). */
@WithJenkins
class BenchmarkActionTest {
    static final String REPORT = """
            {"schemaVersion":1,"tool":"schedpolicy","partial":false,
             "scenario":{"name":"seed-cpu-looper","title":"CPU victim <script>alert(1)</script> vs loopers"},
             "machine":{"cpus":2},"run":{"durationSeconds":170.5},
             "policies":["default","idle"],"loads":[1.0,2.0],
             "cells":[
              {"policy":"default","load":1.0,"keptPct":{"mean":64.6,"ciHalfWidth":2.1}},
              {"policy":"default","load":2.0,"keptPct":{"mean":40.2,"ciHalfWidth":1.0}},
              {"policy":"idle","load":1.0,"keptPct":{"mean":95.0,"ciHalfWidth":0.5}},
              {"policy":"idle","load":2.0,"keptPct":{"mean":92.4,"ciHalfWidth":0.3}}],
             "warnings":[]}
            """;

    private JenkinsRule j;

    @BeforeEach
    void setUp(final JenkinsRule rule) {
        j = rule;
    }

    private FreeStyleBuild buildWithReport(final FreeStyleProject p) throws Exception {
        return buildWithReport(p, REPORT);
    }

    private FreeStyleBuild buildWithReport(final FreeStyleProject p, final String report) throws Exception {
        FreeStyleBuild b = j.buildAndAssertSuccess(p);
        b.addAction(new BenchmarkBuildAction(b, new BenchmarkResult(report, "under 'idle' the test job kept 92.4%")));
        b.save();
        return b;
    }

    /** The build as Jenkins loads it from disk after a restart ({@code Run.reload()} does not call the actions' onLoad). */
    private static FreeStyleBuild reloaded(final FreeStyleProject p, final FreeStyleBuild b) {
        p._getRuns().purgeCache();
        FreeStyleBuild r = p.getBuildByNumber(b.getNumber());
        assertThat(r).isNotSameAs(b);
        return r;
    }

    @Test
    void shouldStoreTheResultInTheBuildDirectoryAndReloadIt() throws Exception {
        FreeStyleProject p = j.createFreeStyleProject();
        FreeStyleBuild b = buildWithReport(p);
        assertThat(b.getRootDir().toPath().resolve("schedpolicy-benchmark.xml")).exists();
        BenchmarkBuildAction a = reloaded(p, b).getAction(BenchmarkBuildAction.class);
        assertThat(a.getSummary().kept("idle", 2.0)).isEqualTo(92.4);
    }

    @Test
    void shouldShowSummaryDetailPageRawJsonAndEscapeUserStrings() throws Exception {
        FreeStyleBuild b = buildWithReport(j.createFreeStyleProject());
        JenkinsRule.WebClient wc = j.createWebClient();

        String summary = wc.getPage(b).asNormalizedText();
        assertThat(summary).contains("Sched Policy benchmark").contains("92.4 ± 0.3");

        HtmlPage detail = wc.getPage(b, BenchmarkBuildAction.URL + "/");
        assertThat(detail.getElementById("schedpolicy-kept").asNormalizedText()).contains("64.6 ± 2.1").contains("idle");
        assertThat(detail.getElementById("schedpolicy-chart-data").getAttribute("data-chart")).contains("\"policy\":\"idle\"");
        assertThat(detail.asNormalizedText()).contains("<script>alert(1)</script>"); // shown as text, not run
        assertThat(detail.getElementById("schedpolicy-gate").asNormalizedText()).contains("92.4%");

        Page json = wc.goTo(b.getUrl() + BenchmarkBuildAction.URL + "/reportJson", "application/json");
        assertThat(json.getWebResponse().getContentAsString()).contains("\"schemaVersion\":1");
    }

    @Test
    void shouldOfferATrendOnTheJobPageOnceTwoBuildsHaveResults() throws Exception {
        FreeStyleProject p = j.createFreeStyleProject();
        buildWithReport(p);
        buildWithReport(p);
        BenchmarkJobAction trend = p.getAction(BenchmarkJobAction.class);
        assertThat(trend).isNotNull();
        assertThat(trend.isTrendVisible()).isTrue();
        assertThat(trend.getBuildTrendModel()).contains("\"name\":\"idle\"").contains("92");
        j.createWebClient().getPage(p); // renders floatingBox.jelly
    }

    /** LineSeries.add prepends: the series must come out oldest first, like the build labels. */
    @Test
    void shouldDrawTheTrendOldestBuildFirst() throws Exception {
        FreeStyleProject p = j.createFreeStyleProject();
        buildWithReport(p, REPORT.replace("92.4", "50.0"));
        buildWithReport(p);
        String model = p.getAction(BenchmarkJobAction.class).getBuildTrendModel();
        assertThat(model).contains("\"domainAxisLabels\":[\"#1\",\"#2\"]").contains("[50,92]");
    }

    /** Issue 23 item 13: "agent 1" and "agent_1" were both "schedpolicy-benchmark-agent_1"; the second overwrote the first. */
    @Test
    void shouldKeepTheResultsOfNodesWhoseNamesDifferOnlyInPunctuationApart() throws Exception {
        FreeStyleProject p = j.createFreeStyleProject();
        FreeStyleBuild built = j.buildAndAssertSuccess(p);
        BenchmarkBuildAction.addTo(built, new BenchmarkResult(REPORT, "space", "agent 1"));
        BenchmarkBuildAction.addTo(built, new BenchmarkResult(REPORT.replace("92.4", "50.0"), "underscore", "agent_1"));
        BenchmarkBuildAction.addTo(built, new BenchmarkResult(REPORT.replace("92.4", "60.0"), "again", "agent_1"));
        built.save();
        FreeStyleBuild b = reloaded(p, built);
        java.util.List<BenchmarkBuildAction> actions = b.getActions(BenchmarkBuildAction.class);
        assertThat(actions).extracting(BenchmarkBuildAction::getUrlName).doesNotHaveDuplicates().hasSize(3);
        assertThat(actions).extracting(a -> a.getResult().getGateMessage()).containsExactly("space", "underscore", "again");
        assertThat(actions.get(0).getSummary().kept("idle", 2.0)).isEqualTo(92.4);
        assertThat(actions.get(1).getSummary().kept("idle", 2.0)).isEqualTo(50.0);
        assertThat(actions.get(2).getSummary().kept("idle", 2.0)).isEqualTo(60.0);
        JenkinsRule.WebClient wc = j.createWebClient();
        for (BenchmarkBuildAction a : actions) {
            assertThat(wc.getPage(b, a.getUrlName() + "/").getElementById("schedpolicy-gate").asNormalizedText())
                    .contains(a.getResult().getGateMessage());
        }
    }
}
