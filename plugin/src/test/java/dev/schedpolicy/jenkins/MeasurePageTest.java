package dev.schedpolicy.jenkins;

import static org.assertj.core.api.Assertions.assertThat;

import hudson.model.Result;
import org.htmlunit.html.HtmlPage;
import org.jenkinsci.plugins.workflow.cps.CpsFlowDefinition;
import org.jenkinsci.plugins.workflow.job.WorkflowJob;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.Test;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

/**
 * A build of 5,000 measured steps on its page, as Jenkins renders it: the build page lists its stages (kilobytes, not
 * the megabytes of a row per launch), each stage's launches a page of 100 at a time one click away.
 */
@WithJenkins
class MeasurePageTest {
    private static final int LAUNCHES = 5000;

    private static WorkflowRun longBuild(final JenkinsRule j) throws Exception {
        WorkflowJob p = j.jenkins.createProject(WorkflowJob.class, "long");
        p.setDefinition(new CpsFlowDefinition("echo 'built'", true));
        WorkflowRun b = j.buildAndAssertStatus(Result.SUCCESS, p);
        MeasureResult result = new MeasureResult();
        for (int i = 0; i < LAUNCHES; i++) {
            result.add(MeasureStorageTest.launch(i));
        }
        b.addAction(new MeasureBuildAction(b, result));
        return b;
    }

    @Test
    void shouldShowALongBuildsStagesOnItsPageAndTheirLaunchesOneClickAway(final JenkinsRule j) throws Exception {
        WorkflowRun b = longBuild(j);
        JenkinsRule.WebClient wc = j.createWebClient();
        HtmlPage page = wc.getPage(b);
        int bytes = page.getWebResponse().getContentAsString().length();
        assertThat(bytes).as("characters of the build page of %d launches", LAUNCHES).isLessThan(500_000);
        assertThat(page.querySelectorAll(".schedpolicy-measure-row")).as("no row per launch on the build page").isEmpty();
        assertThat(page.querySelectorAll(".schedpolicy-measure-stage")).hasSize(10);
        assertThat(page.getElementById("schedpolicy-measure-stages").asNormalizedText()).contains("stage 'Build 3'\t500");

        HtmlPage stage = wc.getPage(b, MeasureBuildAction.URL + "/?stage=Build+3&page=2");
        assertThat(stage.getElementById("schedpolicy-measure-detail").asNormalizedText()).isEqualTo("Stage 'Build 3'");
        assertThat(stage.querySelectorAll(".schedpolicy-measure-row")).hasSize(100);
        assertThat(stage.getElementById("schedpolicy-measure-table").asNormalizedText()).contains("sh 'make target-1600'")
                .doesNotContain("sh 'make target-1599'");
        assertThat(stage.getWebResponse().getContentAsString()).contains("page 2 of 5");
        assertThat(stage.getWebResponse().getContentAsString().length()).isLessThan(500_000);
    }
}
