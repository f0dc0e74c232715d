package dev.schedpolicy.jenkins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.schedpolicy.engine.agent.BlockRecord;
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
class WithSchedPolicyStepTest {
    private JenkinsRule j;

    @BeforeEach
    void setUp(final JenkinsRule rule) {
        j = rule;
        assumeTrue(System.getProperty("os.name").startsWith("Linux"), "scheduling policies are Linux-only");
    }

    private WorkflowRun run(final String script, final Result expected) throws Exception {
        WorkflowJob p = j.jenkins.createProject(WorkflowJob.class, "p" + j.jenkins.getItems().size());
        p.setDefinition(new CpsFlowDefinition(script, true));
        return j.buildAndAssertStatus(expected, p);
    }

    @Test
    void shouldRunShellStepsUnderThePolicyOnTheBuiltInNode() throws Exception {
        WorkflowRun b = run("node { withSchedPolicy('batch+nice19') { sh '" + KernelView.PRINT + "' } ; sh '"
                + KernelView.PRINT + "' }", Result.SUCCESS);
        List<KernelView> seen = KernelView.all(b);
        assertThat(seen.get(0).policy).isEqualTo(KernelView.BATCH);
        assertThat(seen.get(0).nice).isEqualTo(19);
        assertThat(seen.get(1).nice).as("outside the block").isZero();
        j.assertLogContains("[schedpolicy] launches run under batch+nice19", b);
        j.assertLogContains("verified: class batch, nice 19", b);

        BlockRecord block = b.getAction(SchedPolicyAction.class).getBlocks().get(0);
        assertThat(block.node()).isEqualTo("built-in");
        assertThat(block.launches()).isNotEmpty();
        assertThat(block.verifiedLaunches()).isEqualTo(block.launches().size());
        assertThat(block.isFinished()).isTrue();
    }

    @Test
    void shouldMergeNestedBlocksInnerWinningPerField() throws Exception {
        WorkflowRun b = run("node { withSchedPolicy('batch+nice10') {\n"
                + "  withSchedPolicy(nice: 19) { sh '" + KernelView.PRINT + "' }\n"
                + "  withSchedPolicy('idle') { sh '" + KernelView.PRINT + "' }\n"
                + "  sh '" + KernelView.PRINT + "'\n"
                + "} }", Result.SUCCESS);
        List<KernelView> seen = KernelView.all(b);
        assertThat(seen.get(0).policy).isEqualTo(KernelView.BATCH);
        assertThat(seen.get(0).nice).isEqualTo(19);
        assertThat(seen.get(1).policy).isEqualTo(KernelView.IDLE);
        assertThat(seen.get(2).policy).isEqualTo(KernelView.BATCH);
        assertThat(seen.get(2).nice).isEqualTo(10);
        assertThat(b.getAction(SchedPolicyAction.class).getBlocks()).extracting(BlockRecord::effective)
                .containsExactly("batch+nice10", "batch+nice19", "idle+nice10");
    }

    @Test
    void shouldApplyThePolicyOnAnAgentThroughRemoting() throws Exception {
        DumbSlave agent = j.createOnlineSlave(Label.get("remote"));
        WorkflowRun b = run("node('remote') { withSchedPolicy(policy: 'idle') { sh '" + KernelView.PRINT + "' } }",
                Result.SUCCESS);
        assertThat(KernelView.all(b).get(0).policy).isEqualTo(KernelView.IDLE);
        assertThat(b.getAction(SchedPolicyAction.class).getBlocks().get(0).node()).isEqualTo(agent.getNodeName());
    }

    @Test
    void shouldRejectAnUnknownPolicySayingWhatIsAllowed() throws Exception {
        WorkflowRun b = run("node { withSchedPolicy('turbo') { sh 'true' } }", Result.FAILURE);
        j.assertLogContains("ERROR: [schedpolicy] withSchedPolicy: unknown policy token 'turbo'", b);
        j.assertLogContains("use tokens joined by '+'", b);
        j.assertLogNotContains("Exception", b);
        j.assertLogNotContains("[schedpolicy] launches run under", b);
    }

    @Test
    void shouldRejectNiceAboveNineteen() throws Exception {
        WorkflowRun b = run("node { withSchedPolicy(policy: 'batch', nice: 20) { sh 'true' } }", Result.FAILURE);
        j.assertLogContains("0..19", b);
    }

    @Test
    void shouldFailFastWhenTheAdministratorDisabledCgroups() throws Exception {
        SchedPolicyConfiguration.get().setAllowCgroups(false);
        WorkflowRun b = run("node { withSchedPolicy(cpuQuota: 50) { sh 'echo never' } }", Result.FAILURE);
        j.assertLogContains("disabled by the administrator", b);
        j.assertLogNotContains("never", b);
    }

    @Test
    void shouldRefuseRaisingPriorityUnlessAllowed() throws Exception {
        WorkflowRun b = run("node { withSchedPolicy(nice: -5) { sh 'true' } }", Result.FAILURE);
        j.assertLogContains("not allowed here", b);
    }

    @Test
    void shouldNeedANode() throws Exception {
        WorkflowRun b = run("withSchedPolicy('idle') { echo 'x' }", Result.FAILURE);
        j.assertLogContains("Required context", b);
    }

    @Test
    void shouldShowTheBlockOnTheBuildPage() throws Exception {
        WorkflowRun b = run("node { withSchedPolicy('batch') { sh '" + KernelView.PRINT + "' } }", Result.SUCCESS);
        assertThat(KernelView.all(b).get(0).policy).isEqualTo(KernelView.BATCH);
        String page = j.createWebClient().getPage(b).asNormalizedText();
        assertThat(page).contains("Sched Policy").contains("withSchedPolicy batch on built-in").contains("verified");
    }

    @Test
    void shouldPoliceALaunchWhoseEnvironmentCarriesTheMarker() throws Exception {
        WorkflowRun b = run("node { withSchedPolicy('batch+nice19') { withEnv(['SCHEDPOLICY_LAUNCH=forged']) { sh '"
                + KernelView.PRINT + "' } } }", Result.SUCCESS);
        assertThat(KernelView.all(b).get(0).nice).isEqualTo(19);
    }

    @Test
    void shouldKeepTheNodeDefaultAsAFloorUnderANormalBlock() throws Exception {
        SchedPolicyConfiguration.get().setDefaultPolicy("idle");
        WorkflowRun b = run("node { withSchedPolicy('normal') { sh '" + KernelView.PRINT + "' } }", Result.SUCCESS);
        assertThat(KernelView.all(b).get(0).policy).isEqualTo(KernelView.IDLE);
        j.assertLogContains("default class idle is a floor", b);
    }

    @Test
    void shouldLetABlockAboveTheDefaultWhenTheAdministratorAllowsIt() throws Exception {
        SchedPolicyConfiguration.get().setDefaultPolicy("batch+nice15");
        SchedPolicyConfiguration.get().setAllowAboveDefault(true);
        WorkflowRun b = run("node { withSchedPolicy(nice: 0) { sh '" + KernelView.PRINT + "' } }", Result.SUCCESS);
        assertThat(KernelView.all(b).get(0).nice).isZero();
    }

    /** The form's "inherit" choice is blank; bound as is it would become false and override an enclosing cpu-idle. */
    @Test
    void shouldLeaveAnUnsetIdleChoiceUnset() {
        net.sf.json.JSONObject form = net.sf.json.JSONObject.fromObject("{\"policy\":\"idle\",\"cpuIdle\":\"\"}");
        assertThat(PolicyFields.unsetBlankChoices(form).has("cpuIdle")).isFalse();
        assertThat(form.has("cpuIdle")).as("the submitted form itself is untouched").isTrue();
        net.sf.json.JSONObject off = net.sf.json.JSONObject.fromObject("{\"cpuIdle\":\"false\"}");
        assertThat(PolicyFields.unsetBlankChoices(off).getString("cpuIdle")).isEqualTo("false");
    }


    /**
     * Each field's help link on the step's and the wrapper's forms leads to the one shared help text of {@link PolicyFields}.
     * The help URL is found from the request's views, so it is asked for inside a request, as the form does.
     */
    @Test
    void shouldSendEveryFieldsHelpToTheSharedHelpFiles() throws Exception {
        JenkinsRule.WebClient wc = j.createWebClient();
        for (Class<? extends hudson.model.Descriptor<?>> type : List.of(WithSchedPolicyStep.DescriptorImpl.class,
                SchedPolicyWrapper.DescriptorImpl.class)) {
            hudson.model.Descriptor<?> d = j.jenkins.getDescriptorByType(type);
            for (String field : PolicyFields.NAMES) {
                String url = j.executeOnServer(() -> d.getHelpFile(field));
                assertThat(url).as(type.getSimpleName() + " " + field)
                        .isEqualTo("/descriptor/" + PolicyFields.class.getName() + "/help/" + field);
                String text = wc.goTo(url.substring(1), null).getWebResponse().getContentAsString();
                String file;
                try (var in = PolicyFields.class.getResourceAsStream("PolicyFields/help-" + field + ".html")) {
                    file = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
                }
                assertThat(text).as(url).contains(file.strip());
            }
        }
    }
}
