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

    /**
     * Loaded as Jenkins loads a build (its actions' onLoad gives them their owner), the action reads its result back
     * from its own file. {@code Run.reload()} re-reads build.xml without calling onLoad (see its comment in core), so it
     * cannot stand for this.
     */
    @Test
    void shouldStoreTheResultInTheBuildDirectoryAndReloadIt() throws Exception {
        FreeStyleBuild b = buildWithReport(j.createFreeStyleProject("p"));
        assertThat(b.getRootDir().toPath().resolve("schedpolicy-benchmark.xml")).exists();
        j.jenkins.reload();
        FreeStyleBuild loaded = j.jenkins.getItemByFullName("p", FreeStyleProject.class).getBuildByNumber(b.getNumber());
        assertThat(loaded).isNotSameAs(b);
        BenchmarkBuildAction a = loaded.getAction(BenchmarkBuildAction.class);
        assertThat(a.getOwner()).isSameAs(loaded);
        assertThat(a.getSummary().kept("idle", 2.0)).isEqualTo(92.4);
        assertThat(a.getResult().getGateMessage()).isEqualTo("under 'idle' the test job kept 92.4%");
    }

    /** An agent's result has its own file and URL, so several agents' benchmarks of one build do not overwrite each other. */
    @Test
    void shouldKeepEachAgentsResultInItsOwnFile() throws Exception {
        FreeStyleProject p = j.createFreeStyleProject("p");
        FreeStyleBuild b = j.buildAndAssertSuccess(p);
        b.addAction(new BenchmarkBuildAction(b, new BenchmarkResult(REPORT, "built-in", "")));
        b.addAction(new BenchmarkBuildAction(b, new BenchmarkResult(REPORT.replace("92.4", "70.1"), "agent a", "agent a")));
        b.save();
        assertThat(b.getRootDir().toPath().resolve("schedpolicy-benchmark.xml")).exists();
        assertThat(b.getRootDir().toPath().resolve("schedpolicy-benchmark-agent_a.xml")).exists();
        j.jenkins.reload();
        FreeStyleBuild loaded = j.jenkins.getItemByFullName("p", FreeStyleProject.class).getBuildByNumber(b.getNumber());
        assertThat(loaded.getActions(BenchmarkBuildAction.class)).extracting(BenchmarkBuildAction::getUrlName, a -> a.getSummary().kept("idle", 2.0))
                .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("schedpolicy-benchmark", 92.4),
                        org.assertj.core.groups.Tuple.tuple("schedpolicy-benchmark-agent_a", 70.1));
        JenkinsRule.WebClient wc = j.createWebClient();
        assertThat(wc.getPage(loaded, "schedpolicy-benchmark-agent_a/").asNormalizedText()).contains("70.1").contains("on agent a");
    }

    /** A result file that cannot be read leaves the build page working: the summary is missing, not an error page. */
    @Test
    void shouldShowTheBuildPageWhenTheStoredResultIsUnreadable() throws Exception {
        FreeStyleBuild b = buildWithReport(j.createFreeStyleProject("p"));
        java.nio.file.Files.writeString(b.getRootDir().toPath().resolve("schedpolicy-benchmark.xml"), "<not xml");
        j.jenkins.reload();
        FreeStyleBuild loaded = j.jenkins.getItemByFullName("p", FreeStyleProject.class).getBuildByNumber(b.getNumber());
        assertThat(loaded.getAction(BenchmarkBuildAction.class).getSummary()).isNull();
        assertThat(j.createWebClient().getPage(loaded).getWebResponse().getStatusCode()).isEqualTo(200);
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
}
