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
 * withSchedGuard on the built-in node, through the real step, launcher and engine: refused in one line for a job the
 * administrator did not allow (the body runs as it would), and for an allowed job the agent's guard lowers another
 * build's launch while the guarded step waits beside it on one CPU, with one summary line at the end.
 */
@WithJenkins
class WithSchedGuardStepTest {
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

    private static long count(final List<String> log, final String prefix) {
        return log.stream().filter(l -> l.startsWith(prefix)).count();
    }

    @Test
    void shouldRunTheBodyUnguardedWithOneLineWhenTheJobIsNotAllowed() throws Exception {
        SchedPolicyConfiguration.get().setGuardJobs("tests");
        WorkflowRun b = j.buildAndAssertSuccess(job("other", "node { withSchedGuard { sh 'echo body-ran' } }"));
        List<String> log = b.getLog(1000);
        assertThat(count(log, "[schedpolicy] withSchedGuard: not guarded, job 'other' is not among the jobs an administrator"
                + " lets guard")).isEqualTo(1);
        j.assertLogContains("body-ran", b);
        j.assertLogNotContains("[schedpolicy] guard:", b);
        // nothing polices the body: no launch went through the agent's handshake
        j.assertLogNotContains("verified", b);
    }

    @Test
    void shouldLetNobodyGuardByDefault() throws Exception {
        WorkflowRun b = j.buildAndAssertSuccess(job("tests", "node { withSchedGuard { sh 'true' } }"));
        j.assertLogContains("[schedpolicy] withSchedGuard: not guarded, job 'tests' is not among the jobs", b);
    }

    @Test
    void shouldLowerAnotherBuildsLaunchWhileTheGuardedStepWaitsAndSayItInOneLine() throws Exception {
        Path taskset = Path.of("/usr/bin/taskset");
        assumeTrue(Files.isExecutable(taskset), "needs taskset (util-linux) to share one CPU");
        SchedPolicyConfiguration.get().setGuardJobs("tests|team/.*");
        // the other build is measured, so its launch goes through the agent's registry unlowered (policy normal)
        SchedPolicyConfiguration.get().setMeasureAllSteps(true);
        WorkflowRun hog = job("hog", "node { sh 'echo hog-started; taskset -c 0 sh -c \"" + BUSY + "\" & wait' }")
                .scheduleBuild2(0).waitForStart();
        j.waitForMessage("hog-started", hog);
        Thread.sleep(500);
        WorkflowRun b = j.buildAndAssertSuccess(job("tests",
                "node { withSchedGuard { sh 'timeout 3 taskset -c 0 sh -c \"" + BUSY + "\" || true' } }"));
        hog.doStop();
        j.assertBuildStatus(Result.ABORTED, j.waitForCompletion(hog));

        List<String> log = b.getLog(1000);
        assertThat(count(log, "[schedpolicy] guard: ")).as(String.join("\n", log)).isEqualTo(1);
        String line = log.stream().filter(l -> l.startsWith("[schedpolicy] guard: ")).findFirst().orElseThrow();
        assertThat(line).contains("; acted ").contains("lowered 1 launch, ").endsWith(": another launch on this agent; all"
                + " put back");
        j.assertLogNotContains("not guarded", b);
    }
}
