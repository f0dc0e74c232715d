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

    @Test
    void shouldPoliceDeprecatedLaunchOverloadsOfTheNodesLauncher() throws Exception {
        DumbSlave agent = j.createOnlineSlave(Label.get("lowered"));
        agent.getNodeProperties().add(new SchedPolicyNodeProperty("batch+nice15"));
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        hudson.Launcher launcher = agent.createLauncher(hudson.model.TaskListener.NULL);
        @SuppressWarnings("deprecation")
        int exit = launcher.launch(new String[] {"sh", "-c", KernelView.PRINT}, new String[0], null, out, null).join();
        assertThat(exit).isZero();
        String stat = out.toString(java.nio.charset.StandardCharsets.UTF_8).trim();
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
        assertThat(Integer.parseInt(f[19 - 3])).isEqualTo(15);
    }

    @Test
    void shouldReportABlankPolicyAsAFormErrorNotAStackTrace() {
        SchedPolicyNodeProperty.DescriptorImpl d = j.jenkins.getDescriptorByType(SchedPolicyNodeProperty.DescriptorImpl.class);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> d.newInstance((org.kohsuke.stapler.StaplerRequest2) null, net.sf.json.JSONObject.fromObject("{\"policy\":\" \"}")))
                .isInstanceOf(hudson.model.Descriptor.FormException.class).hasMessageContaining("Enter a policy");
    }

    @Test
    void shouldRefuseToSaveANegativeLowestNiceWithoutAllowRaise() {
        net.sf.json.JSONObject form = net.sf.json.JSONObject.fromObject("{\"allowRaise\":false,\"minNice\":-5}");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> SchedPolicyConfiguration.get().configure((org.kohsuke.stapler.StaplerRequest2) null, form))
                .isInstanceOf(hudson.model.Descriptor.FormException.class).hasMessageContaining("needs allowRaise");
        assertThat(SchedPolicyConfiguration.get().getMinNice()).isZero();
    }

    @Test
    void shouldKeepTheCgroupParentThroughTheFormAndRefuseARelativeOne() throws Exception {
        DumbSlave agent = j.createSlave();
        SchedPolicyNodeProperty property = new SchedPolicyNodeProperty("cpu-idle");
        property.setCgroupParent("/sys/fs/cgroup/cpu/schedpolicy/");
        agent.getNodeProperties().add(property);
        DumbSlave after = j.configRoundtrip(agent);
        assertThat(after.getNodeProperties().get(SchedPolicyNodeProperty.class).getCgroupParent()).isEqualTo("/sys/fs/cgroup/cpu/schedpolicy");
        assertThat(NodeDefaults.cgroupParentFor(after)).isEqualTo("/sys/fs/cgroup/cpu/schedpolicy");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> property.setCgroupParent("cpu/schedpolicy"))
                .hasMessageContaining("must be an absolute directory");
    }

    @Test
    void shouldKeepTheNodesOwnGuardRulesThroughTheForm() throws Exception {
        DumbSlave agent = j.createSlave();
        SchedPolicyNodeProperty property = new SchedPolicyNodeProperty("normal");
        property.setGuardStages(" ^Smoke$ ");
        property.setGuardWholeJobs("nightly");
        agent.getNodeProperties().add(property);
        SchedPolicyNodeProperty after = j.configRoundtrip(agent).getNodeProperties().get(SchedPolicyNodeProperty.class);
        assertThat(after.getGuardStages()).isEqualTo("^Smoke$");
        assertThat(after.getGuardWholeJobs()).isEqualTo("nightly");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> property.setGuardWholeJobs("nightly("))
                .hasMessageStartingWith("the jobs whose every step runs guarded must be a Java regular expression");
    }
}
