package dev.schedpolicy.jenkins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

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

    @Test
    void shouldRejectBadArgumentsWhereTheyAreWritten() {
        assertThatThrownBy(() -> new SchedPolicyWrapper("turbo")).isInstanceOf(IllegalArgumentException.class);
        SchedPolicyWrapper w = new SchedPolicyWrapper("idle");
        assertThatThrownBy(() -> w.setIo("loud")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> w.setCpuQuota(0)).hasMessageContaining("CPU quota");
    }
}
