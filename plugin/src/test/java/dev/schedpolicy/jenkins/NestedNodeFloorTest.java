package dev.schedpolicy.jenkins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.schedpolicy.engine.agent.BlockRecord;
import dev.schedpolicy.engine.agent.LaunchRecord;
import hudson.model.Label;
import hudson.model.Result;
import hudson.slaves.DumbSlave;
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
 * Issue 23 item 1: workflow-support decorates the launchers of a {@code node {}} nested in a block with the block's
 * decorator, for the inner node. The block's request must run there under that node's floor, and the block's end
 * must reach that node, which holds the groups of those launches.
 */
@WithJenkins
class NestedNodeFloorTest {
    private JenkinsRule j;

    @BeforeEach
    void setUp(final JenkinsRule rule) {
        j = rule;
        assumeTrue(System.getProperty("os.name").startsWith("Linux"), "scheduling policies are Linux-only");
    }

    @Test
    void shouldRunANodeNestedInABlockUnderThatNodesFloorAndEndTheBlockThere() throws Exception {
        DumbSlave agent = j.createOnlineSlave(Label.get("inner"));
        agent.getNodeProperties().add(new SchedPolicyNodeProperty("nice12"));
        WorkflowJob p = j.jenkins.createProject(WorkflowJob.class, "p");
        p.setDefinition(new CpsFlowDefinition("node('built-in') { withSchedPolicy('normal+quota50') { node('inner') {\n"
                + " sh '" + KernelView.PRINT + "' } } }", true));
        WorkflowRun b = j.buildAndAssertStatus(Result.SUCCESS, p);
        List<KernelView> seen = KernelView.all(b);
        assertThat(seen.get(0).nice).as("the inner node's default nice 12 is a floor under the outer block").isEqualTo(12);
        BlockRecord block = b.getAction(SchedPolicyAction.class).getBlocks().get(0);
        assertThat(block.launches()).hasSize(1);
        LaunchRecord launch = block.launches().get(0);
        assertThat(launch.policy()).isEqualTo("normal+nice12+quota50");
        assertThat(block.launchNodes()).containsExactly(agent.getNodeName());
        assertThat(block.usage()).as("the block's end reached the inner node").hasValueSatisfying(u -> assertThat(u.groups()).isEqualTo(1));
        String group = launch.cpuCgroup();
        assertThat(group).isNotEqualTo("/");
        assertThat(Path.of("/sys/fs/cgroup/cpu" + group)).doesNotExist();
        assertThat(Path.of("/sys/fs/cgroup" + group)).doesNotExist();
        assertThat(Files.exists(Path.of("/sys/fs/cgroup/cpu" + group))).isFalse();
    }

    /** Issue 31 item 8: the measured launch is named by the floor that ran, not by the author's 'normal'. */
    @Test
    void shouldLabelAMeasuredLaunchInANestedNodeByTheFloorApplied() throws Exception {
        DumbSlave agent = j.createOnlineSlave(Label.get("inner"));
        SchedPolicyNodeProperty property = new SchedPolicyNodeProperty("idle");
        property.setMeasure(true);
        agent.getNodeProperties().add(property);
        WorkflowJob p = j.jenkins.createProject(WorkflowJob.class, "nested");
        p.setDefinition(new CpsFlowDefinition("node('built-in') { withSchedPolicy('normal') { node('inner') {\n"
                + " sh '" + KernelView.PRINT + "' } } }", true));
        WorkflowRun b = j.buildAndAssertStatus(Result.SUCCESS, p);
        assertThat(KernelView.all(b).get(0).policy).as("the inner node's idle floor ran (class 5)").isEqualTo(5);
        MeasureBuildAction measured = b.getAction(MeasureBuildAction.class);
        assertThat(measured).as("the inner node measures every launch").isNotNull();
        assertThat(measured.getLaunches()).extracting(MeasureBuildAction.Row::getLabel, MeasureBuildAction.Row::getPolicy)
                .containsExactly(tuple("nested #1 › sh (idle)", "idle"));
        assertThat(measured.getUnloweredWaitSharePercent()).as("no unlowered launch").isEqualTo(-1.0);
    }
}
