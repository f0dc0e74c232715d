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

/** Measuring every launch on a node: the figures reach the build, and the switch survives the configuration form. */
@WithJenkins
class MeasureTest {
    private JenkinsRule j;

    @BeforeEach
    void setUp(final JenkinsRule rule) {
        j = rule;
        assumeTrue(System.getProperty("os.name").startsWith("Linux"), "measuring reads Linux' /proc and cgroups");
    }

    @Test
    void shouldRecordEachLaunchOfAMeasuredNodeOnTheBuild() throws Exception {
        DumbSlave agent = j.createOnlineSlave(Label.get("measured"));
        SchedPolicyNodeProperty property = new SchedPolicyNodeProperty("normal");
        property.setMeasure(true);
        agent.getNodeProperties().add(property);
        WorkflowJob p = j.jenkins.createProject(WorkflowJob.class, "p");
        p.setDefinition(new CpsFlowDefinition("node('measured') { sh 'i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done' }", true));
        WorkflowRun b = j.buildAndAssertStatus(Result.SUCCESS, p);
        MeasureBuildAction action = b.getAction(MeasureBuildAction.class);
        assertThat(action).as("the build's measured launches").isNotNull();
        List<MeasureBuildAction.Row> rows = action.getLaunches();
        assertThat(rows).isNotEmpty();
        MeasureBuildAction.Row sh = rows.stream().max((x, y) -> Double.compare(x.getCpuSeconds(), y.getCpuSeconds())).orElseThrow();
        assertThat(sh.getLabel()).isEqualTo("p #1 (no policy)");
        assertThat(sh.getNode()).isEqualTo(agent.getNodeName());
        assertThat(sh.getCpuSeconds()).isPositive();
        assertThat(sh.getWaitSharePercent()).isBetween(0.0, 100.0);
        assertThat(sh.isEnded()).isTrue();
        assertThat(action.getMissing()).isEmpty();
        assertThat(p.getAction(MeasureJobAction.class)).as("the job's trend").isNotNull();
    }

    @Test
    void shouldNotMeasureWhereNobodyTurnedItOn() throws Exception {
        WorkflowJob p = j.jenkins.createProject(WorkflowJob.class, "p");
        p.setDefinition(new CpsFlowDefinition("node { sh 'true' }", true));
        WorkflowRun b = j.buildAndAssertStatus(Result.SUCCESS, p);
        assertThat(b.getAction(MeasureBuildAction.class)).isNull();
    }

    @Test
    void shouldKeepTheMeasureSwitchThroughTheNodeConfigurationForm() throws Exception {
        DumbSlave agent = j.createSlave();
        SchedPolicyNodeProperty property = new SchedPolicyNodeProperty("normal");
        property.setMeasure(true);
        agent.getNodeProperties().add(property);
        DumbSlave after = j.configRoundtrip(agent);
        assertThat(after.getNodeProperties().get(SchedPolicyNodeProperty.class).isMeasure()).isTrue();
    }
}
