package dev.schedpolicy.jenkins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import hudson.model.Label;
import hudson.model.Result;
import hudson.slaves.DumbSlave;
import java.util.List;
import org.jenkinsci.plugins.workflow.cps.CpsFlowDefinition;
import org.jenkinsci.plugins.workflow.job.WorkflowJob;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

@WithJenkins
class SchedPolicyNodePropertyTest {
    private JenkinsRule j;

    @BeforeEach
    void setUp(final JenkinsRule rule) {
        j = rule;
        assumeTrue(System.getProperty("os.name").startsWith("Linux"), "scheduling policies are Linux-only");
    }

    @Test
    void shouldRunEveryLaunchOnTheNodeUnderItsDefaultAndMergeBlocksOnTop() throws Exception {
        DumbSlave agent = j.createOnlineSlave(Label.get("lowered"));
        agent.getNodeProperties().add(new SchedPolicyNodeProperty("batch+nice15"));
        WorkflowJob p = j.jenkins.createProject(WorkflowJob.class, "p");
        p.setDefinition(new CpsFlowDefinition("node('lowered') { sh '" + KernelView.PRINT + "'\n"
                + " withSchedPolicy(nice: 19) { sh '" + KernelView.PRINT + "' } }", true));
        WorkflowRun b = j.buildAndAssertStatus(Result.SUCCESS, p);
        List<KernelView> seen = KernelView.all(b);
        assertThat(seen.get(0).policy).isEqualTo(KernelView.BATCH);
        assertThat(seen.get(0).nice).isEqualTo(15);
        assertThat(seen.get(1).policy).as("node default's class kept under the block").isEqualTo(KernelView.BATCH);
        assertThat(seen.get(1).nice).isEqualTo(19);
    }

    @Test
    void shouldApplyTheGlobalDefaultWhereNoNodePropertyIsSet() throws Exception {
        SchedPolicyConfiguration.get().setDefaultPolicy("nice12");
        WorkflowJob p = j.jenkins.createProject(WorkflowJob.class, "p");
        p.setDefinition(new CpsFlowDefinition("node { sh '" + KernelView.PRINT + "' }", true));
        WorkflowRun b = j.buildAndAssertStatus(Result.SUCCESS, p);
        assertThat(KernelView.all(b).get(0).nice).isEqualTo(12);
    }

    @Test
    void shouldKeepThePropertyThroughTheNodeConfigurationForm() throws Exception {
        DumbSlave agent = j.createSlave();
        agent.getNodeProperties().add(new SchedPolicyNodeProperty("idle+warn"));
        DumbSlave after = j.configRoundtrip(agent);
        assertThat(after.getNodeProperties().get(SchedPolicyNodeProperty.class).getPolicy()).isEqualTo("idle+warn");
    }
}
