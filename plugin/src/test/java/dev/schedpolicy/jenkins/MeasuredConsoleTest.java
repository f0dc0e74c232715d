package dev.schedpolicy.jenkins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.jenkinsci.plugins.workflow.cps.CpsFlowDefinition;
import org.jenkinsci.plugins.workflow.job.WorkflowJob;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

/**
 * A step measured and not lowered runs as it would without the plugin: its build's console says once where the figures
 * are, not a "normal ... verified" line per step (a long build of short steps had thousands); a lowered launch keeps its
 * verified line.
 */
@WithJenkins
class MeasuredConsoleTest {
    private JenkinsRule j;

    @BeforeEach
    void setUp(final JenkinsRule rule) {
        j = rule;
        assumeTrue(System.getProperty("os.name").startsWith("Linux"), "measuring reads Linux' /proc and cgroups");
    }

    @Test
    void shouldSayOnceABuildThatItsStepsAreMeasuredAndVerifyOnlyLoweredLaunches() throws Exception {
        SchedPolicyConfiguration.get().setMeasureAllSteps(true);
        WorkflowJob job = j.jenkins.createProject(WorkflowJob.class, "many-steps");
        job.setDefinition(new CpsFlowDefinition(
                "node { sh 'true'; sh 'true'; sh 'true'; withSchedPolicy('batch') { sh 'true' } }", true));
        WorkflowRun b = j.buildAndAssertSuccess(job);

        String log = JenkinsRule.getLog(b);
        assertThat(log.lines().filter(l -> l.startsWith("[schedpolicy] this node measures its steps and lowers none:")))
                .as("the once-a-build line").hasSize(1);
        assertThat(log.lines().filter(l -> l.startsWith("[schedpolicy] normal: pid"))).as("lines of unlowered launches").isEmpty();
        assertThat(log.lines().filter(l -> l.matches("\\[schedpolicy] batch: pid [0-9]+ verified: class batch.*")))
                .as("the lowered launch's line").hasSize(1);
        assertThat(b.getAction(MeasureBuildAction.class).getLaunches()).as("every launch measured").hasSize(4);
    }
}
