package dev.schedpolicy.jenkins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.List;
import org.jenkinsci.plugins.workflow.cps.CpsFlowDefinition;
import org.jenkinsci.plugins.workflow.job.WorkflowJob;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

/**
 * A guarded step on a lowered agent: the agent default is no floor for the launches of a step an administrator lets
 * guard (they run at normal, or at what their own block asks, never above normal), and stays one for every other launch
 * and for a job that may not guard. Read from the {@code sh} itself ({@link KernelView}).
 */
@WithJenkins
class GuardFloorTest {
    private JenkinsRule j;

    @BeforeEach
    void setUp(final JenkinsRule rule) {
        j = rule;
        assumeTrue(System.getProperty("os.name").startsWith("Linux"), "scheduling policies are Linux-only");
    }

    private WorkflowRun run(final String name, final String script) throws Exception {
        WorkflowJob p = j.jenkins.createProject(WorkflowJob.class, name);
        p.setDefinition(new CpsFlowDefinition(script, true));
        return j.buildAndAssertSuccess(p);
    }

    private static String sh() {
        return "sh '" + KernelView.PRINT + "'";
    }

    @Test
    void shouldRunAGuardedStepAtNormalOnAnIdleAgentAndEveryOtherStepIdle() throws Exception {
        SchedPolicyConfiguration.get().setDefaultPolicy("idle+nice10");
        SchedPolicyConfiguration.get().setGuardJobs("tests");
        SchedPolicyConfiguration.get().setGuardStages("(?i)test");
        // authors may ask for nice -5: the guard must still not run a launch above normal
        SchedPolicyConfiguration.get().setAllowRaise(true);
        SchedPolicyConfiguration.get().setMinNice(-5);
        WorkflowRun b = run("tests", "node {\n " + sh() + "\n withSchedGuard { " + sh() + " }\n"
                + " stage('Test') { " + sh() + " }\n"
                + " withSchedGuard { withSchedPolicy('batch') { " + sh() + " } }\n"
                + " withSchedGuard { withSchedPolicy(policy: 'normal', nice: -5) { " + sh() + " } } }");
        List<KernelView> seen = KernelView.all(b);
        assertThat(seen).hasSize(5);
        assertThat(new int[] {seen.get(0).policy, seen.get(0).nice}).as("plain sh: the default").containsExactly(KernelView.IDLE, 10);
        assertThat(new int[] {seen.get(1).policy, seen.get(1).nice}).as("withSchedGuard: normal")
                .containsExactly(KernelView.NORMAL, 0);
        assertThat(new int[] {seen.get(2).policy, seen.get(2).nice}).as("stage 'Test' by the rule: normal")
                .containsExactly(KernelView.NORMAL, 0);
        assertThat(new int[] {seen.get(3).policy, seen.get(3).nice}).as("a block inside the guard: what it asks, no default")
                .containsExactly(KernelView.BATCH, 0);
        assertThat(seen.get(4).nice).as("never above normal").isZero();
    }

    @Test
    void shouldKeepTheFloorForAJobThatMayNotGuard() throws Exception {
        SchedPolicyConfiguration.get().setDefaultPolicy("idle");
        SchedPolicyConfiguration.get().setGuardJobs("tests");
        WorkflowRun b = run("compile", "node { withSchedGuard { " + sh() + " } }");
        assertThat(KernelView.all(b).get(0).policy).isEqualTo(KernelView.IDLE);
    }
}
