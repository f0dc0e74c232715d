package dev.schedpolicy.jenkins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.schedpolicy.engine.agent.BlockRecord;
import hudson.model.FreeStyleBuild;
import hudson.model.FreeStyleProject;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.jenkinsci.plugins.workflow.cps.CpsFlowDefinition;
import org.jenkinsci.plugins.workflow.job.WorkflowJob;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.junit.jupiter.JenkinsSessionExtension;

/** What must survive a controller restart: a running block (its step execution and decorator) and the benchmark results. */
class RestartTest {
    @RegisterExtension
    private final JenkinsSessionExtension sessions = new JenkinsSessionExtension();

    @BeforeEach
    void linuxOnly() {
        assumeTrue(System.getProperty("os.name").startsWith("Linux"), "scheduling policies are Linux-only");
    }

    /**
     * The block's execution and its launcher decorator are saved with the Pipeline's program (JBoss Marshalling, through
     * the same class filter) and resumed: the body's launches after the restart still run under the policy and are still
     * recorded, and the block ends.
     */
    @Test
    void shouldKeepPolicingARunningBlockThroughARestart() throws Throwable {
        sessions.then(j -> {
            WorkflowJob p = j.jenkins.createProject(WorkflowJob.class, "p");
            p.setDefinition(new CpsFlowDefinition("node {\n withSchedPolicy('batch+nice17') {\n  sh '" + KernelView.PRINT + "'\n"
                    + "  waitUntil { fileExists 'go' }\n  sh '" + KernelView.PRINT + "'\n }\n sh '" + KernelView.PRINT + "'\n}", true));
            WorkflowRun b = p.scheduleBuild2(0).waitForStart();
            // once waitUntil waits for its next try, not while its body runs: a restart then finds the program saved
            j.waitForMessage("Will try again after", b);
        });
        sessions.then(j -> {
            WorkflowJob p = j.jenkins.getItemByFullName("p", WorkflowJob.class);
            WorkflowRun b = p.getBuildByNumber(1);
            j.jenkins.getWorkspaceFor(p).child("go").write("", StandardCharsets.UTF_8.name());
            j.assertBuildStatusSuccess(j.waitForCompletion(b));
            List<KernelView> seen = KernelView.all(b);
            assertThat(seen).hasSize(3);
            for (KernelView k : seen.subList(0, 2)) {
                assertThat(new int[] {k.policy, k.nice}).as("before and after the restart").containsExactly(KernelView.BATCH, 17);
            }
            assertThat(new int[] {seen.get(2).policy, seen.get(2).nice}).as("after the block").containsExactly(KernelView.NORMAL, 0);
            BlockRecord block = b.getAction(SchedPolicyAction.class).getBlocks().get(0);
            assertThat(block.launches()).hasSize(2);
            assertThat(block.verifiedLaunches()).isEqualTo(2);
            assertThat(block.isFinished()).isTrue();
        });
    }

    /**
     * A withSchedGuard block open across a restart: which of its launches reached an agent's guard was in the controller's
     * memory only, and it ends with one line that says the controller restarted, not that no launch reached the guard.
     */
    @Test
    void shouldSayThatTheControllerRestartedWhenAGuardedBlockEndsAfterARestart() throws Throwable {
        sessions.then(j -> {
            SchedPolicyConfiguration.get().setGuardJobs("p");
            WorkflowJob p = j.jenkins.createProject(WorkflowJob.class, "p");
            p.setDefinition(new CpsFlowDefinition("node { withSchedGuard { waitUntil { fileExists 'go' } } }", true));
            WorkflowRun b = p.scheduleBuild2(0).waitForStart();
            // once waitUntil waits for its next try, not while its body runs: a restart then finds the program saved
            j.waitForMessage("Will try again after", b);
        });
        sessions.then(j -> {
            WorkflowJob p = j.jenkins.getItemByFullName("p", WorkflowJob.class);
            WorkflowRun b = p.getBuildByNumber(1);
            j.jenkins.getWorkspaceFor(p).child("go").write("", StandardCharsets.UTF_8.name());
            j.assertBuildStatusSuccess(j.waitForCompletion(b));
            j.assertLogContains("[schedpolicy] guard: the controller restarted while the block ran, so what its guard did is"
                    + " not known", b);
            j.assertLogNotContains("no launch of the block reached", b);
        });
    }

    @Test
    void shouldKeepTheBenchmarkResultsAndTheirTrendThroughARestart() throws Throwable {
        sessions.then(j -> {
            FreeStyleProject p = j.createFreeStyleProject("p");
            for (String kept : List.of("50.0", "92.4")) {
                FreeStyleBuild b = j.buildAndAssertSuccess(p);
                b.addAction(new BenchmarkBuildAction(b, new BenchmarkResult(BenchmarkActionTest.REPORT.replace("92.4", kept), "gate " + kept, "")));
                b.addAction(new BenchmarkBuildAction(b, new BenchmarkResult(BenchmarkActionTest.REPORT, "gate", "agent-a")));
                b.save();
            }
        });
        sessions.then(j -> {
            FreeStyleProject p = j.jenkins.getItemByFullName("p", FreeStyleProject.class);
            FreeStyleBuild second = p.getBuildByNumber(2);
            assertThat(second.getActions(BenchmarkBuildAction.class)).hasSize(2)
                    .allSatisfy(a -> assertThat(a.getOwner()).isSameAs(second));
            assertThat(second.getAction(BenchmarkBuildAction.class).getResult().getGateMessage()).isEqualTo("gate 92.4");
            JenkinsRule.WebClient wc = j.createWebClient();
            assertThat(wc.getPage(second, BenchmarkBuildAction.URL + "/").asNormalizedText()).contains("92.4 ± 0.3");
            BenchmarkBuildAction agent = second.getActions(BenchmarkBuildAction.class).get(1);
            assertThat(agent.getUrlName()).isNotEqualTo(BenchmarkBuildAction.URL);
            assertThat(wc.getPage(second, agent.getUrlName() + "/").asNormalizedText()).contains("on agent-a");
            assertThat(p.getAction(BenchmarkJobAction.class).getBuildTrendModel()).contains("\"domainAxisLabels\":[\"#1\",\"#2\"]")
                    .contains("[50,92]");
        });
    }
}
