package dev.schedpolicy.jenkins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import hudson.model.FreeStyleBuild;
import hudson.model.FreeStyleProject;
import hudson.model.Result;
import hudson.model.Run;
import hudson.tasks.Shell;
import hudson.util.FormValidation;
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
 * The administrator's rules by node, whole job and label, through the real Pipeline, freestyle build, launcher and engine
 * on the built-in node: a build with no withSchedGuard runs guarded where a rule matches, with one summary line and one
 * page entry per block, and not at all for a job the grant ({@code guardJobs}) leaves out.
 */
@WithJenkins
class NodeAndLabelGuardsTest {
    private static final String BUSY = "while :; do :; done";
    private JenkinsRule j;

    @BeforeEach
    void setUp(final JenkinsRule rule) {
        j = rule;
        assumeTrue(System.getProperty("os.name").startsWith("Linux"), "scheduling policies are Linux-only");
    }

    private WorkflowRun pipeline(final String name, final String script) throws Exception {
        WorkflowJob p = j.jenkins.createProject(WorkflowJob.class, name);
        p.setDefinition(new CpsFlowDefinition(script, true));
        return j.buildAndAssertSuccess(p);
    }

    private static List<String> guardLines(final Run<?, ?> b) throws Exception {
        return b.getLog(1000).stream().filter(l -> l.startsWith("[schedpolicy] guard: ")).toList();
    }

    private static int blocks(final Run<?, ?> b) {
        GuardBuildAction a = b.getAction(GuardBuildAction.class);
        return a == null ? 0 : a.getBlocks().size();
    }

    @Test
    void shouldGuardEveryStepOnANodeTheLabelRuleMatchesWhileAnotherBuildIsBusy() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/taskset")), "needs taskset (util-linux) to share one CPU");
        j.jenkins.setLabelString("test-pool");
        SchedPolicyConfiguration.get().setGuardJobs("tests");
        SchedPolicyConfiguration.get().setGuardLabel("test-pool && !build");
        SchedPolicyConfiguration.get().setMeasureAllSteps(true);
        WorkflowJob hogJob = j.jenkins.createProject(WorkflowJob.class, "hog");
        hogJob.setDefinition(new CpsFlowDefinition("node { sh 'echo hog-started; taskset -c 0 sh -c \"" + BUSY
                + "\" & wait' }", true));
        WorkflowRun hog = hogJob.scheduleBuild2(0).waitForStart();
        j.waitForMessage("hog-started", hog);
        Thread.sleep(500);
        WorkflowRun b = pipeline("tests", "node('test-pool') {\n"
                + "  stage('Build') { sh 'echo build-ran' }\n"
                + "  stage('Check') { sh 'timeout 3 taskset -c 0 sh -c \"" + BUSY + "\" || true' }\n"
                + "}");
        hog.doStop();
        j.assertBuildStatus(Result.ABORTED, j.waitForCompletion(hog));

        // one block for the whole build, both stages' launches in it: the hog's launch, lowered by both, counts once
        assertThat(guardLines(b)).as(String.join("\n", b.getLog(1000))).singleElement().satisfies(line -> assertThat(line)
                .contains("; acted ").contains("lowered 1 launch, ").endsWith(": another launch on this agent; all put back"));
        String page = j.createWebClient().getPage(b).getElementById("schedpolicy-guard").asNormalizedText();
        assertThat(page).contains(": hog #1 › sh (no policy); all put back");
        b.reload();
        assertThat(blocks(b)).isEqualTo(1);
        // the line comes after the build's last step, before it says it finished
        List<String> log = b.getLog(1000);
        assertThat(log.indexOf(guardLines(b).get(0))).isGreaterThan(log.indexOf("build-ran"));
    }

    @Test
    void shouldNotGuardOnANodeTheLabelRuleDoesNotMatchNorAJobTheGrantLeavesOut() throws Exception {
        j.jenkins.setLabelString("test-pool build");
        SchedPolicyConfiguration.get().setGuardJobs("tests");
        SchedPolicyConfiguration.get().setGuardLabel("test-pool && !build");
        WorkflowRun other = pipeline("tests", "node { sh 'echo body-ran' }");
        assertThat(guardLines(other)).isEmpty();
        assertThat(blocks(other)).isZero();

        j.jenkins.setLabelString("test-pool");
        WorkflowRun compile = pipeline("compile", "node { sh 'echo body-ran' }");
        j.assertLogContains("body-ran", compile);
        assertThat(guardLines(compile)).isEmpty();
        j.assertLogNotContains("not guarded", compile);
        // nothing polices the step: no launch went through the agent's handshake
        j.assertLogNotContains("verified", compile);
        assertThat(blocks(compile)).isZero();
    }

    @Test
    void shouldGuardAFreestyleBuildOnANodeTheLabelRuleMatches() throws Exception {
        j.jenkins.setLabelString("test-pool");
        SchedPolicyConfiguration.get().setGuardJobs("fs-tests");
        SchedPolicyConfiguration.get().setGuardLabel("test-pool");
        FreeStyleProject p = j.createFreeStyleProject("fs-tests");
        p.getBuildersList().add(new Shell("echo one"));
        p.getBuildersList().add(new Shell("echo two"));
        FreeStyleBuild b = j.buildAndAssertSuccess(p);
        assertThat(guardLines(b)).as(String.join("\n", b.getLog(1000))).hasSize(1);
        assertThat(blocks(b)).isEqualTo(1);

        SchedPolicyConfiguration.get().setGuardLabel("other-pool");
        FreeStyleBuild unguarded = j.buildAndAssertSuccess(p);
        assertThat(guardLines(unguarded)).isEmpty();
        assertThat(blocks(unguarded)).isZero();
    }

    @Test
    void shouldGuardTheWholeBuildOfAJobTheRuleNamesAsOneBlock() throws Exception {
        SchedPolicyConfiguration.get().setGuardJobs("tests|compile");
        SchedPolicyConfiguration.get().setGuardWholeJobs("tests|nightly");
        WorkflowRun b = pipeline("tests", "node { stage('Build') { sh 'echo one' }; stage('Deploy') { sh 'echo two' } }");
        assertThat(guardLines(b)).as(String.join("\n", b.getLog(1000))).hasSize(1);
        assertThat(blocks(b)).isEqualTo(1);
        // allowed to guard, not named by the rule
        WorkflowRun compile = pipeline("compile", "node { sh 'echo body-ran' }");
        assertThat(guardLines(compile)).isEmpty();
        // named by the rule, not allowed to guard
        WorkflowRun nightly = pipeline("nightly", "node { sh 'echo body-ran' }");
        assertThat(guardLines(nightly)).isEmpty();
        j.assertLogNotContains("verified", nightly);
    }

    @Test
    void shouldLetANodesOwnRulesReplaceTheGlobalOnesAndLiftItsFloorForAGuardedStep() throws Exception {
        SchedPolicyConfiguration.get().setGuardJobs("tests|nightly");
        SchedPolicyConfiguration.get().setGuardStages("(?i)test");
        SchedPolicyNodeProperty own = new SchedPolicyNodeProperty("nice12");
        own.setGuardStages("^Smoke$");
        own.setGuardWholeJobs("nightly");
        j.jenkins.getNodeProperties().add(own);
        String print = "sh '" + KernelView.PRINT + "'";
        WorkflowRun b = pipeline("tests", "node { stage('Test') { " + print + " }; stage('Smoke') { " + print + " } }");
        // the node's stage rule, not the global one: 'Smoke' is guarded (normal, the floor lifted), 'Test' is not
        assertThat(guardLines(b)).as(String.join("\n", b.getLog(1000))).hasSize(1);
        List<KernelView> seen = KernelView.all(b);
        assertThat(new int[] {seen.get(0).nice, seen.get(1).nice}).containsExactly(12, 0);
        // the node's whole-job rule: one block for the build
        WorkflowRun nightly = pipeline("nightly", "node { stage('Build') { " + print + " } }");
        assertThat(guardLines(nightly)).hasSize(1);
        assertThat(KernelView.all(nightly).get(0).nice).isZero();
        // blank on the node takes the global stage rule
        own.setGuardStages("");
        WorkflowRun global = pipeline("tests2", "node { stage('Test') { sh 'echo t' } }");
        assertThat(guardLines(global)).isEmpty();
        SchedPolicyConfiguration.get().setGuardJobs("tests.*|nightly");
        WorkflowRun granted = pipeline("tests3", "node { stage('Test') { sh 'echo t' } }");
        assertThat(guardLines(granted)).hasSize(1);
    }

    @Test
    void shouldRefuseABadPatternOrLabelSayingWhatIsAllowed() {
        SchedPolicyConfiguration c = SchedPolicyConfiguration.get();
        FormValidation label = c.doCheckGuardLabel("test-pool &&");
        assertThat(label.kind).isEqualTo(FormValidation.Kind.ERROR);
        assertThat(label.getMessage()).startsWith("the nodes whose steps run guarded must be a Jenkins label expression, as"
                + " in a job&#039;s Restrict where this project can be run, e.g. test-pool or linux &amp;&amp; !build (blank: no"
                + " node); &#039;test-pool &amp;&amp;&#039; is not one: ");
        assertThat(c.doCheckGuardLabel("test-pool").kind).isNotEqualTo(FormValidation.Kind.ERROR);
        assertThat(c.doCheckGuardWholeJobs("tests(").getMessage()).startsWith("the jobs whose every step runs guarded must be");
        assertThatThrownBy(() -> c.setGuardLabel("(linux")).hasMessageStartingWith("the nodes whose steps run guarded must be");
        assertThat(c.getGuardLabel()).isNull();
        SchedPolicyNodeProperty.DescriptorImpl d = j.jenkins.getDescriptorByType(SchedPolicyNodeProperty.DescriptorImpl.class);
        assertThat(d.doCheckGuardStages(null, "test(").getMessage()).startsWith("the stages to guard must be");
        assertThat(d.doCheckGuardWholeJobs(null, "  ").kind).isEqualTo(FormValidation.Kind.OK);
    }
}
