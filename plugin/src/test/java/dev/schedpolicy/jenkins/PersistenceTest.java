package dev.schedpolicy.jenkins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.schedpolicy.engine.agent.BlockRecord;
import hudson.XmlFile;
import hudson.model.FreeStyleBuild;
import hudson.model.FreeStyleProject;
import hudson.model.Result;
import hudson.model.Run;
import hudson.slaves.DumbSlave;
import hudson.tasks.Shell;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.logging.Level;
import jenkins.model.Jenkins;
import org.jenkinsci.plugins.workflow.cps.CpsFlowDefinition;
import org.jenkinsci.plugins.workflow.job.WorkflowJob;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.LogRecorder;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

/**
 * JEP-200: Jenkins' class filter lets XStream save a class only when core or a plugin vouches for it, so every class the
 * plugin persists (the build's records, which are the engine's classes, the benchmark result, the wrapper, the node
 * property, the global configuration) must save and load back unchanged. A refused class shows as a WARNING
 * "Refusing to marshal" and a build.xml that did not save.
 */
@WithJenkins
class PersistenceTest {
    private final LogRecorder logs = new LogRecorder().record("jenkins.security", Level.WARNING)
            .record("hudson.util.XStream2", Level.WARNING).record(Run.class, Level.WARNING).record("hudson.model", Level.WARNING)
            .record("dev.schedpolicy", Level.WARNING).capture(100);
    private JenkinsRule j;

    @BeforeEach
    void setUp(final JenkinsRule rule) {
        j = rule;
        assumeTrue(System.getProperty("os.name").startsWith("Linux"), "scheduling policies are Linux-only");
    }

    private static String xml(final Object o) {
        return Run.XSTREAM2.toXML(o);
    }

    private void assertNothingRefused() {
        assertThat(logs.getMessages()).as("warnings while saving or loading")
                .noneMatch(m -> m.contains("Refusing") || m.contains("Failed to") || m.contains("cannot save") || m.contains("class filter"));
    }

    @Test
    void shouldSaveAndLoadTheBuildRecordsOfAPipelineUnchanged() throws Exception {
        WorkflowJob p = j.jenkins.createProject(WorkflowJob.class, "p");
        // a launch record with its kernel read-back, a cgroup's usage, a warning (the floor) and a finished block
        SchedPolicyConfiguration.get().setDefaultPolicy("nice5");
        p.setDefinition(new CpsFlowDefinition("node { withSchedPolicy(policy: 'batch', cpuQuota: 50) { sh '" + KernelView.PRINT + "' }\n"
                + " withSchedPolicy(nice: 0) { sh '" + KernelView.PRINT + "' } }", true));
        WorkflowRun b = j.buildAndAssertStatus(Result.SUCCESS, p);
        List<KernelView> seen = KernelView.all(b);
        assertThat(new int[] {seen.get(0).policy, seen.get(0).nice}).containsExactly(KernelView.BATCH, 5);
        assertThat(new int[] {seen.get(1).policy, seen.get(1).nice}).as("nice 0 under the default nice 5").containsExactly(KernelView.NORMAL, 5);
        b.addAction(new BenchmarkBuildAction(b, new BenchmarkResult(BenchmarkActionTest.REPORT, "gate", "")));
        b.save();
        List<BlockRecord> blocks = b.getAction(SchedPolicyAction.class).getBlocks();
        assertThat(blocks).hasSize(2);
        assertThat(blocks.get(0).usage()).as("the quota block's cgroup usage").hasValueSatisfying(u -> assertThat(u.groups()).isEqualTo(1));
        assertThat(blocks.get(0).launches()).isNotEmpty().allSatisfy(l -> assertThat(l.verified()).isTrue());
        assertThat(blocks.get(1).warnings()).anyMatch(w -> w.contains("floor"));
        String records = xml(b.getAction(SchedPolicyAction.class));
        String benchmark = xml(b.getAction(BenchmarkBuildAction.class).getResult());
        assertThat(records).contains(dev.schedpolicy.engine.agent.LaunchRecord.class.getName()).contains("<usage>").contains("<warnings>");

        String buildXml = Files.readString(b.getRootDir().toPath().resolve("build.xml"), StandardCharsets.UTF_8);
        assertThat(buildXml).contains(SchedPolicyAction.class.getName()).contains(BlockRecord.class.getName())
                .contains(BenchmarkBuildAction.class.getName());

        j.jenkins.reload();
        WorkflowRun loaded = j.jenkins.getItemByFullName("p", WorkflowJob.class).getBuildByNumber(b.getNumber());
        assertThat(loaded).isNotSameAs(b);
        assertThat(xml(loaded.getAction(SchedPolicyAction.class))).isEqualTo(records);
        assertThat(loaded.getAction(SchedPolicyAction.class).getRun()).isSameAs(loaded);
        assertThat(xml(loaded.getAction(BenchmarkBuildAction.class).getResult())).isEqualTo(benchmark);
        assertNothingRefused();
    }

    @Test
    void shouldSaveAndLoadAFreestyleBuildAndItsWrapperUnchanged() throws Exception {
        FreeStyleProject p = j.createFreeStyleProject("f");
        SchedPolicyWrapper w = new SchedPolicyWrapper("batch");
        w.setNice(18);
        w.setCpuIdle(true);
        p.getBuildWrappersList().add(w);
        p.getBuildersList().add(new Shell(KernelView.PRINT));
        FreeStyleBuild b = j.buildAndAssertSuccess(p);
        KernelView seen = KernelView.all(b).get(0);
        assertThat(new int[] {seen.policy, seen.nice}).containsExactly(KernelView.BATCH, 18);
        String records = xml(b.getAction(SchedPolicyAction.class));
        String config = p.getConfigFile().asString();
        assertThat(config).contains(SchedPolicyWrapper.class.getName()).contains("<nice>18</nice>");

        j.jenkins.reload();
        FreeStyleProject loadedJob = j.jenkins.getItemByFullName("f", FreeStyleProject.class);
        j.assertEqualDataBoundBeans(w, loadedJob.getBuildWrappersList().get(SchedPolicyWrapper.class));
        assertThat(xml(loadedJob.getBuildByNumber(b.getNumber()).getAction(SchedPolicyAction.class))).isEqualTo(records);
        assertNothingRefused();
    }

    @Test
    void shouldSaveAndLoadTheNodePropertyAndTheGlobalConfiguration() throws Exception {
        DumbSlave agent = j.createSlave("a", null, null);
        SchedPolicyNodeProperty property = new SchedPolicyNodeProperty("idle+warn");
        property.setCgroupParent("/sys/fs/cgroup/cpu/schedpolicy");
        agent.getNodeProperties().add(property);
        agent.save();
        SchedPolicyConfiguration.get().setDefaultPolicy("batch+nice10");
        SchedPolicyConfiguration.get().setMaxQuotaPercent(150);
        XmlFile global = new XmlFile(new java.io.File(j.jenkins.getRootDir(), SchedPolicyConfiguration.class.getName() + ".xml"));
        assertThat(global.asString()).contains("<defaultPolicy>batch+nice10</defaultPolicy>");

        j.jenkins.reload();
        SchedPolicyNodeProperty loaded = j.jenkins.getNode("a").getNodeProperties().get(SchedPolicyNodeProperty.class);
        assertThat(loaded).isNotSameAs(property);
        j.assertEqualDataBoundBeans(property, loaded);
        // reload() reads the files again into the same GlobalConfiguration instance
        SchedPolicyConfiguration c = Jenkins.get().getDescriptorByType(SchedPolicyConfiguration.class);
        assertThat(c.getDefaultPolicy()).isEqualTo("batch+nice10");
        assertThat(c.getMaxQuotaPercent()).isEqualTo(150);
        assertNothingRefused();
    }

    /** Each engine class a build record holds is on the plugin's list for the class filter (META-INF/hudson.remoting.ClassFilter). */
    @Test
    void shouldListEveryRecordClassForTheClassFilter() throws IOException {
        List<String> listed;
        try (var in = PersistenceTest.class.getClassLoader().getResourceAsStream("META-INF/hudson.remoting.ClassFilter")) {
            assertThat(in).isNotNull();
            listed = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
        }
        assertThat(listed).contains(BlockRecord.class.getName(), dev.schedpolicy.engine.agent.LaunchRecord.class.getName(),
                dev.schedpolicy.engine.agent.UsageRecord.class.getName());
        for (String name : listed) {
            assertThat(hudson.remoting.ClassFilter.DEFAULT.isBlacklisted(name)).as(name).isFalse();
        }
    }
}
