package dev.schedpolicy.jenkins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import hudson.model.FreeStyleBuild;
import hudson.model.FreeStyleProject;
import hudson.model.Result;
import hudson.tasks.Shell;
import java.util.List;
import org.jenkinsci.plugins.workflow.cps.CpsFlowDefinition;
import org.jenkinsci.plugins.workflow.job.WorkflowJob;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

/**
 * The administrator's default (global, or the node property) is a floor: every launch runs at it or lower, whatever a
 * block asks for. Each case reads what the kernel applied from the {@code sh} itself.
 */
@WithJenkins
class FloorTest {
    private JenkinsRule j;

    @BeforeEach
    void setUp(final JenkinsRule rule) {
        j = rule;
        assumeTrue(System.getProperty("os.name").startsWith("Linux"), "scheduling policies are Linux-only");
    }

    private WorkflowRun run(final String script) throws Exception {
        WorkflowJob p = j.jenkins.createProject(WorkflowJob.class, "p" + j.jenkins.getItems().size());
        p.setDefinition(new CpsFlowDefinition(script, true));
        return j.buildAndAssertStatus(Result.SUCCESS, p);
    }

    private static String sh() {
        return "sh '" + KernelView.PRINT + "'";
    }

    @Test
    void shouldKeepTheNodePropertyAsAFloorAndLetBlocksGoLower() throws Exception {
        j.jenkins.getNodeProperties().add(new SchedPolicyNodeProperty("batch+nice10"));
        WorkflowRun b = run("node {\n " + sh() + "\n withSchedPolicy('normal') { " + sh() + " }\n"
                + " withSchedPolicy('idle') { " + sh() + " }\n"
                + " withSchedPolicy(nice: 15) { " + sh() + " }\n"
                + " withEnv(['SCHEDPOLICY_LAUNCH=forged']) { " + sh() + " } }");
        List<KernelView> seen = KernelView.all(b);
        assertThat(seen).hasSize(5);
        assertThat(seen.get(0)).as("plain sh").satisfies(k -> assertThat(new int[] {k.policy, k.nice}).containsExactly(KernelView.BATCH, 10));
        assertThat(seen.get(1)).as("'normal' block").satisfies(k -> assertThat(new int[] {k.policy, k.nice}).containsExactly(KernelView.BATCH, 10));
        assertThat(seen.get(2).policy).as("'idle' block goes lower").isEqualTo(KernelView.IDLE);
        assertThat(seen.get(3)).as("nice 15 block").satisfies(k -> assertThat(new int[] {k.policy, k.nice}).containsExactly(KernelView.BATCH, 15));
        assertThat(seen.get(4)).as("forged marker").satisfies(k -> assertThat(new int[] {k.policy, k.nice}).containsExactly(KernelView.BATCH, 10));
        j.assertLogContains("is a floor", b);
    }

    @Test
    void shouldPreferTheNodePropertyOverTheGlobalDefault() throws Exception {
        SchedPolicyConfiguration.get().setDefaultPolicy("idle");
        j.jenkins.getNodeProperties().add(new SchedPolicyNodeProperty("nice12"));
        KernelView seen = KernelView.all(run("node { " + sh() + " }")).get(0);
        assertThat(seen.policy).isEqualTo(KernelView.NORMAL);
        assertThat(seen.nice).isEqualTo(12);
    }

    @Test
    void shouldKeepTheGlobalDefaultUnderALowerButDifferentBlock() throws Exception {
        SchedPolicyConfiguration.get().setDefaultPolicy("idle");
        WorkflowRun b = run("node { withSchedPolicy(policy: 'batch', nice: 19) { " + sh() + " }\n"
                + " withEnv(['SCHEDPOLICY_LAUNCH=forged']) { " + sh() + " } }");
        List<KernelView> seen = KernelView.all(b);
        assertThat(seen.get(0).policy).as("batch is above idle: the default's class stays").isEqualTo(KernelView.IDLE);
        assertThat(seen.get(1).policy).as("a forged marker does not escape the default").isEqualTo(KernelView.IDLE);
    }

    @Test
    void shouldKeepTheGlobalDefaultUnderTheFreestyleWrapper() throws Exception {
        SchedPolicyConfiguration.get().setDefaultPolicy("batch+nice15");
        FreeStyleProject p = j.createFreeStyleProject();
        p.getBuildWrappersList().add(new SchedPolicyWrapper("normal"));
        p.getBuildersList().add(new Shell(KernelView.PRINT));
        FreeStyleBuild b = j.buildAndAssertSuccess(p);
        KernelView seen = KernelView.all(b).get(0);
        assertThat(seen.policy).isEqualTo(KernelView.BATCH);
        assertThat(seen.nice).isEqualTo(15);
        j.assertLogContains("is a floor", b);
    }

    @Test
    void shouldRunNormallyOnceTheDefaultIsCleared() throws Exception {
        SchedPolicyConfiguration.get().setDefaultPolicy("idle");
        assertThat(KernelView.all(run("node { " + sh() + " }")).get(0).policy).isEqualTo(KernelView.IDLE);
        SchedPolicyConfiguration.get().setDefaultPolicy("");
        KernelView seen = KernelView.all(run("node { " + sh() + " }")).get(0);
        assertThat(seen.policy).isEqualTo(KernelView.NORMAL);
        assertThat(seen.nice).isZero();
    }
}
