package dev.schedpolicy.jenkins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.schedpolicy.engine.agent.BlockRecord;
import hudson.model.FreeStyleBuild;
import hudson.model.FreeStyleProject;
import hudson.tasks.Shell;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

@WithJenkins
class SchedPolicyWrapperTest {
    private JenkinsRule j;

    @BeforeEach
    void setUp(final JenkinsRule rule) {
        j = rule;
        assumeTrue(System.getProperty("os.name").startsWith("Linux"), "scheduling policies are Linux-only");
    }

    @Test
    void shouldRunTheFreestyleBuildUnderThePolicy() throws Exception {
        FreeStyleProject p = j.createFreeStyleProject();
        SchedPolicyWrapper w = new SchedPolicyWrapper("batch");
        w.setNice(15);
        p.getBuildWrappersList().add(w);
        p.getBuildersList().add(new Shell(KernelView.PRINT));
        FreeStyleBuild b = j.buildAndAssertSuccess(p);
        KernelView seen = KernelView.all(b).get(0);
        assertThat(seen.policy).isEqualTo(KernelView.BATCH);
        assertThat(seen.nice).isEqualTo(15);
        assertThat(b.getAction(SchedPolicyAction.class).getBlocks().get(0).isFinished()).isTrue();
    }

    @Test
    void shouldKeepItsOptionsThroughTheConfigurationForm() throws Exception {
        FreeStyleProject p = j.createFreeStyleProject();
        SchedPolicyWrapper w = new SchedPolicyWrapper("idle");
        w.setIo("be:7");
        w.setOnUnsupported("warn");
        p.getBuildWrappersList().add(w);
        j.configRoundtrip(p);
        SchedPolicyWrapper after = p.getBuildWrappersList().get(SchedPolicyWrapper.class);
        assertThat(after.getPolicy()).isEqualTo("idle");
        assertThat(after.getIo()).isEqualTo("be:7");
        assertThat(after.getOnUnsupported()).isEqualTo("warn");
    }

    /** A rejected value is never stored: it would fail every later setter with its own message and be saved with the job. */
    @Test
    void shouldRejectBadArgumentsWhereTheyAreWritten() {
        assertThatThrownBy(() -> new SchedPolicyWrapper("turbo")).isInstanceOf(IllegalArgumentException.class);
        SchedPolicyWrapper w = new SchedPolicyWrapper("idle");
        w.setIo("be:7");
        assertThatThrownBy(() -> w.setIo("loud")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'loud'");
        assertThat(w.getIo()).as("the value before the rejected one").isEqualTo("be:7");
        assertThatThrownBy(() -> w.setCpuQuota(0)).hasMessageContaining("CPU quota");
        assertThat(w.getCpuQuota()).isNull();
        assertThatThrownBy(() -> w.setNice(20)).hasMessageContaining("0..19");
        assertThat(w.getNice()).isNull();
        w.setCpuQuota(50);
        assertThat(w.getCpuQuota()).isEqualTo(50);
    }

    /** A failed checkout never tears the wrappers' environment down; the block must still end. */
    @Test
    void shouldFinishTheBlockWhenTheCheckoutFails() throws Exception {
        FreeStyleProject p = j.createFreeStyleProject();
        p.getBuildWrappersList().add(new SchedPolicyWrapper("batch"));
        p.setScm(new FailingCheckout());
        FreeStyleBuild b = j.buildAndAssertStatus(hudson.model.Result.FAILURE, p);
        assertThat(b.getAction(SchedPolicyAction.class).getBlocks()).singleElement()
                .satisfies(block -> assertThat(block.isFinished()).isTrue());
    }

    @Test
    void shouldRunPublishersInsideTheBlock() throws Exception {
        FreeStyleProject p = j.createFreeStyleProject();
        p.getBuildWrappersList().add(new SchedPolicyWrapper("batch+nice12"));
        p.getPublishersList().add(new LaunchingPublisher());
        FreeStyleBuild b = j.buildAndAssertSuccess(p);
        assertThat(KernelView.all(b).get(0).nice).as("the publisher's launch").isEqualTo(12);
        BlockRecord block = b.getAction(SchedPolicyAction.class).getBlocks().get(0);
        assertThat(block.launches()).isNotEmpty();
        assertThat(block.isFinished()).isTrue();
    }

    /** Launches through the build's launcher after the build steps, as publishers do. */
    public static final class LaunchingPublisher extends hudson.tasks.Recorder {
        @Override
        public boolean perform(final hudson.model.AbstractBuild<?, ?> build, final hudson.Launcher launcher,
                final hudson.model.BuildListener listener) throws InterruptedException, java.io.IOException {
            return launcher.launch().cmds("sh", "-c", KernelView.PRINT).stdout(listener).join() == 0;
        }

        @Override
        public hudson.tasks.BuildStepMonitor getRequiredMonitorService() {
            return hudson.tasks.BuildStepMonitor.NONE;
        }

        @org.jvnet.hudson.test.TestExtension("shouldRunPublishersInsideTheBlock")
        public static final class DescriptorImpl extends hudson.tasks.BuildStepDescriptor<hudson.tasks.Publisher> {
            @Override
            public boolean isApplicable(final Class<? extends hudson.model.AbstractProject> type) {
                return true;
            }
        }
    }

    public static final class FailingCheckout extends hudson.scm.NullSCM {
        @Override
        public void checkout(final hudson.model.Run<?, ?> build, final hudson.Launcher launcher, final hudson.FilePath workspace,
                final hudson.model.TaskListener listener, final java.io.File changelogFile,
                final hudson.scm.SCMRevisionState baseline) throws java.io.IOException {
            throw new hudson.AbortException("checkout failed (test)");
        }
    }
}
