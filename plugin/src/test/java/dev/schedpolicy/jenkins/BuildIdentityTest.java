package dev.schedpolicy.jenkins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import hudson.model.Result;
import java.io.File;
import java.nio.file.Files;
import org.jenkinsci.plugins.workflow.cps.CpsFlowDefinition;
import org.jenkinsci.plugins.workflow.job.WorkflowJob;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

/**
 * A measured launch belongs to the build Jenkins runs it for (the step's context, the executor's build), never to the
 * build that JOB_NAME and BUILD_NUMBER in its environment name: those are the build's own to change.
 */
@WithJenkins
class BuildIdentityTest {
    private JenkinsRule j;

    @BeforeEach
    void setUp(final JenkinsRule rule) {
        j = rule;
        assumeTrue(System.getProperty("os.name").startsWith("Linux"), "measuring reads Linux' /proc and cgroups");
    }

    @Test
    void shouldMeasureALaunchForItsOwnBuildWhateverItsEnvironmentSays() throws Exception {
        WorkflowJob red = j.jenkins.createProject(WorkflowJob.class, "red");
        red.setDefinition(new CpsFlowDefinition("echo 'red team'", true));
        WorkflowRun red1 = j.buildAndAssertSuccess(red);
        File buildXml = new File(red1.getRootDir(), "build.xml");
        byte[] before = Files.readAllBytes(buildXml.toPath());

        SchedPolicyConfiguration.get().setMeasureAllSteps(true);
        WorkflowJob spoof = j.jenkins.createProject(WorkflowJob.class, "spoof");
        spoof.setDefinition(new CpsFlowDefinition("node { withEnv(['JOB_NAME=red', 'BUILD_NUMBER=1']) { sh 'true' } }", true));
        WorkflowRun b = j.buildAndAssertStatus(Result.SUCCESS, spoof);

        assertThat(red1.getAction(MeasuredLaunches.class)).as("a launch pending in red #1").isNull();
        assertThat(Files.readAllBytes(buildXml.toPath())).as("red #1's build.xml").isEqualTo(before);
        MeasureBuildAction own = b.getAction(MeasureBuildAction.class);
        assertThat(own).as("the spoofing build's own measured launches").isNotNull();
        assertThat(own.getLaunches()).extracting(MeasureBuildAction.Row::getLabel).containsExactly("spoof #1 › sh (no policy)");
    }
}
