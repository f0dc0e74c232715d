package dev.schedpolicy.jenkins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import hudson.model.FreeStyleBuild;
import hudson.model.FreeStyleProject;
import hudson.model.Label;
import hudson.model.Result;
import hudson.slaves.DumbSlave;
import hudson.tasks.Shell;
import java.util.List;
import net.sf.json.JSONArray;
import net.sf.json.JSONNull;
import net.sf.json.JSONObject;
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
        assertThat(sh.getLabel()).as("the name other builds show: no script").isEqualTo("p #1 › sh (no policy)");
        assertThat(sh.getStage()).isEmpty();
        assertThat(sh.getStep()).isEqualTo("sh 'i=0; while [ $i…'");
        assertThat(sh.getNode()).isEqualTo(agent.getNodeName());
        assertThat(sh.getCpuSeconds()).isPositive();
        assertThat(sh.getWaitSharePercent()).isBetween(0.0, 100.0);
        assertThat(sh.isEnded()).isTrue();
        assertThat(action.getMissing()).isEmpty();
        assertThat(p.getAction(MeasureJobAction.class)).as("the job's trend").isNotNull();
    }

    @Test
    void shouldLabelEachLaunchByItsStageAndStep() throws Exception {
        DumbSlave agent = measuredAgent();
        WorkflowJob p = j.jenkins.createProject(WorkflowJob.class, "two-stages");
        p.setDefinition(new CpsFlowDefinition("node('measured') {\n"
                + "  stage('Build') { sh 'echo compiling' }\n"
                + "  stage('Test') { sh label: 'unit tests', script: 'echo testing' }\n"
                + "  stage('Checks') { parallel lint: { sh 'echo linting' } }\n"
                + "}", true));
        WorkflowRun b = j.buildAndAssertStatus(Result.SUCCESS, p);
        MeasureBuildAction action = b.getAction(MeasureBuildAction.class);
        assertThat(action).as("the build's measured launches").isNotNull();
        // durable-task's sh launches once per step (the wrapper starts the script and its heartbeat itself)
        assertThat(action.getLaunches()).extracting(MeasureBuildAction.Row::getStage, MeasureBuildAction.Row::getBranch,
                MeasureBuildAction.Row::getStep).containsExactlyInAnyOrder(
                        tuple("Build", "", "sh 'echo compiling'"),
                        tuple("Test", "", "sh 'unit tests'"),
                        tuple("Checks", "lint", "sh 'echo linting'"));
        assertThat(action.getLaunches()).extracting(MeasureBuildAction.Row::getWhere).containsExactlyInAnyOrder(
                "stage 'Build' › sh 'echo compiling' (no policy)", "stage 'Test' › sh 'unit tests' (no policy)",
                "stage 'Checks' › branch 'lint' › sh 'echo linting' (no policy)");
        assertThat(action.getLaunches()).extracting(MeasureBuildAction.Row::getLabel)
                .contains("two-stages #1 › stage 'Test' › sh (no policy)");
        assertThat(action.getLaunches()).allSatisfy(r -> assertThat(r.getNode()).isEqualTo(agent.getNodeName()));
        JenkinsRule.WebClient wc = j.createWebClient();
        String table = wc.getPage(b).getElementById("schedpolicy-measure-table").asNormalizedText();
        assertThat(table).contains("stage 'Test' › sh 'unit tests' (no policy)", "stage 'Build' › sh 'echo compiling' (no policy)");
        String json = wc.goTo(b.getUrl() + "schedpolicy-measure/api/json?depth=2", "application/json").getWebResponse()
                .getContentAsString();
        assertThat(json).contains("\"stage\":\"Test\"", "\"step\":\"sh 'unit tests'\"", "\"branch\":\"lint\"");
    }

    @Test
    void shouldLabelAFreestyleLaunchByItsBuildStep() throws Exception {
        DumbSlave agent = measuredAgent();
        FreeStyleProject p = j.createFreeStyleProject("fs");
        p.setAssignedNode(agent);
        p.getBuildersList().add(new Shell("echo freestyle"));
        FreeStyleBuild b = j.buildAndAssertSuccess(p);
        MeasureBuildAction action = b.getAction(MeasureBuildAction.class);
        assertThat(action).as("the build's measured launches").isNotNull();
        assertThat(action.getLaunches()).extracting(MeasureBuildAction.Row::getLabel).contains("fs #1 › Execute shell (no policy)");
    }

    /** Issue 31 item 9: a build without an unlowered launch has no unlowered share: a gap in the trend, not 0%. */
    @Test
    void shouldDrawABuildWithoutUnloweredLaunchesAsAGapInTheTrend() throws Exception {
        measuredAgent();
        WorkflowJob p = j.jenkins.createProject(WorkflowJob.class, "gap");
        p.setDefinition(new CpsFlowDefinition("node('measured') { withSchedPolicy('idle') { sh 'true' } }", true));
        WorkflowRun lowered = j.buildAndAssertStatus(Result.SUCCESS, p);
        assertThat(lowered.getAction(MeasureBuildAction.class).getUnloweredWaitSharePercent()).isEqualTo(-1.0);
        p.setDefinition(new CpsFlowDefinition("node('measured') { sh 'true' }", true));
        WorkflowRun unlowered = j.buildAndAssertStatus(Result.SUCCESS, p);
        assertThat(unlowered.getAction(MeasureBuildAction.class).getUnloweredWaitSharePercent()).isNotNegative();
        JSONObject model = JSONObject.fromObject(p.getAction(MeasureJobAction.class).getBuildTrendModel());
        JSONArray series = model.getJSONArray("series");
        assertThat(series.getJSONObject(1).getString("name")).isEqualTo("launches without a policy");
        JSONArray data = series.getJSONObject(1).getJSONArray("data");
        assertThat(data.size()).as("two builds: %s", data).isEqualTo(2);
        assertThat(data.get(0)).as("#1 had no unlowered launch: %s", data).isEqualTo(JSONNull.getInstance());
        assertThat(data.get(1)).as("#2's unlowered share").isInstanceOf(Integer.class);
        assertThat(series.getJSONObject(0).getJSONArray("data").get(0)).as("#1 over all its launches").isInstanceOf(Integer.class);
    }

    /**
     * Issue 31 item 10: a CPU quota holds its group back once it used its share of a period; the tasks stay queued, so
     * schedstat counted that hold as a wait for a CPU. It is its own figure, and the wait is what remains.
     */
    @Test
    void shouldShowTheTimeAQuotaHeldALaunchBackApartFromTheWait() throws Exception {
        measuredAgent();
        WorkflowJob p = j.jenkins.createProject(WorkflowJob.class, "quota");
        p.setDefinition(new CpsFlowDefinition("node('measured') { withSchedPolicy(cpuQuota: 20) {\n"
                + "  sh 'timeout 3 sh -c \"while :; do :; done\" || true'\n} }", true));
        WorkflowRun b = j.buildAndAssertStatus(Result.SUCCESS, p);
        JenkinsRule.WebClient wc = j.createWebClient();
        JSONObject json = JSONObject.fromObject(wc.goTo(b.getUrl() + "schedpolicy-measure/api/json?depth=2", "application/json")
                .getWebResponse().getContentAsString());
        JSONObject row = json.getJSONArray("launches").getJSONObject(0);
        assertThat(row.has("throttledSeconds")).as("the quota's hold in api/json: %s", row).isTrue();
        double throttled = row.getDouble("throttledSeconds");
        assertThat(throttled).as("%s", row).isPositive();
        // the loop is the launch's one busy task and runnable for its 3 s (the shell, timeout and the heartbeat add
        // milliseconds): on CPU, waiting or held, never two at once. Counted also as wait, the hold made the sum about
        // 5 s; how the 3 s split between hold and wait depends on the machine's load, the sum does not.
        double runnable = row.getDouble("cpuSeconds") + row.getDouble("waitSeconds") + throttled;
        assertThat(runnable).as("the quota's hold is not also a wait for a CPU: %s", row).isBetween(2.5, 3.6);
        assertThat(json.getDouble("throttledSeconds")).as("the build's figure").isEqualTo(throttled);
        String table = wc.getPage(b).getElementById("schedpolicy-measure-table").asNormalizedText();
        assertThat(table).contains("Held back by its CPU quota", String.valueOf(throttled));
        assertThat(wc.getPage(b).getElementById("schedpolicy-measure-summary").asNormalizedText())
                .contains("held back by their CPU quotas");
    }

    private DumbSlave measuredAgent() throws Exception {
        DumbSlave agent = j.createOnlineSlave(Label.get("measured"));
        SchedPolicyNodeProperty property = new SchedPolicyNodeProperty("normal");
        property.setMeasure(true);
        agent.getNodeProperties().add(property);
        return agent;
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
