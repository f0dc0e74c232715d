package dev.schedpolicy.jenkins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import hudson.model.Result;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jenkinsci.plugins.workflow.cps.CpsFlowDefinition;
import org.jenkinsci.plugins.workflow.job.WorkflowJob;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

/**
 * The administrator's rule by stage name ({@code guardStages}), through the real Pipeline, launcher and engine on the
 * built-in node: a step in a stage whose name matches runs guarded with no withSchedGuard in the Jenkinsfile, with one
 * summary line per stage and the block on the build page, for jobs {@code guardJobs} allows only.
 */
@WithJenkins
class GuardStagesTest {
    private static final String BUSY = "while :; do :; done";
    private JenkinsRule j;

    @BeforeEach
    void setUp(final JenkinsRule rule) {
        j = rule;
        assumeTrue(System.getProperty("os.name").startsWith("Linux"), "scheduling policies are Linux-only");
    }

    private WorkflowJob job(final String name, final String script) throws Exception {
        WorkflowJob p = j.jenkins.createProject(WorkflowJob.class, name);
        p.setDefinition(new CpsFlowDefinition(script, true));
        return p;
    }

    private static List<String> guardLines(final WorkflowRun b) throws Exception {
        return b.getLog(1000).stream().filter(l -> l.startsWith("[schedpolicy] guard: ")).toList();
    }

    @Test
    void shouldGuardAMatchingStageWithoutWithSchedGuardWhileAnotherBuildIsBusy() throws Exception {
        Path taskset = Path.of("/usr/bin/taskset");
        assumeTrue(Files.isExecutable(taskset), "needs taskset (util-linux) to share one CPU");
        SchedPolicyConfiguration.get().setGuardJobs("tests");
        SchedPolicyConfiguration.get().setGuardStages("(?i)test");
        // the other build is measured, so its launch goes through the agent's registry unlowered (policy normal)
        SchedPolicyConfiguration.get().setMeasureAllSteps(true);
        WorkflowRun hog = job("hog", "node { sh 'echo hog-started; taskset -c 0 sh -c \"" + BUSY + "\" & wait' }")
                .scheduleBuild2(0).waitForStart();
        j.waitForMessage("hog-started", hog);
        Thread.sleep(500);
        WorkflowRun b = j.buildAndAssertSuccess(job("tests", "node {\n"
                + "  stage('Build') { sh 'echo build-ran' }\n"
                + "  stage('Unit tests') { sh 'timeout 3 taskset -c 0 sh -c \"" + BUSY + "\" || true' }\n"
                + "}"));
        hog.doStop();
        j.assertBuildStatus(Result.ABORTED, j.waitForCompletion(hog));

        List<String> lines = guardLines(b);
        assertThat(lines).as(String.join("\n", b.getLog(1000))).singleElement().satisfies(line -> assertThat(line)
                .contains("; acted ").contains("lowered 1 launch, ").endsWith(": another launch on this agent; all put back"));
        b.reload();
        assertThat(b.getAction(GuardBuildAction.class).getBlocks()).singleElement()
                .satisfies(block -> assertThat(block.getLoweredLaunches()).isEqualTo(1));
        // the page names the hog to whoever may read its job (here everyone), where the console counts it
        String page = j.createWebClient().getPage(b).getElementById("schedpolicy-guard").asNormalizedText();
        assertThat(page).contains(lines.get(0).substring("[schedpolicy] ".length())
                .replace(": another launch on this agent;", ": hog #1 › sh (no policy);"));
    }

    @Test
    void shouldLeaveAMatchingStageAloneWhenTheJobMayNotGuard() throws Exception {
        SchedPolicyConfiguration.get().setGuardJobs("tests");
        SchedPolicyConfiguration.get().setGuardStages("(?i)test");
        WorkflowRun b = j.buildAndAssertSuccess(job("compile", "node { stage('Test') { sh 'echo body-ran' } }"));
        j.assertLogContains("body-ran", b);
        assertThat(guardLines(b)).isEmpty();
        j.assertLogNotContains("not guarded", b);
        // nothing polices the step: no launch went through the agent's handshake
        j.assertLogNotContains("verified", b);
        assertThat(b.getAction(GuardBuildAction.class)).isNull();
    }

    @Test
    void shouldGuardEachMatchingStageWithItsOwnLineAndNoOtherStage() throws Exception {
        SchedPolicyConfiguration.get().setGuardJobs("tests");
        SchedPolicyConfiguration.get().setGuardStages("^Test");
        WorkflowRun b = j.buildAndAssertSuccess(job("tests", "node {\n"
                + "  stage('Build') { sh 'echo build-ran' }\n"
                + "  stage('Test unit') { sh 'echo unit-1'; sh 'echo unit-2' }\n"
                + "  stage('Test it') { sh 'echo it' }\n"
                + "}"));
        assertThat(guardLines(b)).hasSize(2);
        assertThat(b.getAction(GuardBuildAction.class).getBlocks()).hasSize(2);
    }
}
