package dev.schedpolicy.jenkins;

import static org.assertj.core.api.Assertions.assertThat;

import hudson.model.AbstractProject;
import hudson.model.FreeStyleProject;
import hudson.tasks.BuildStepDescriptor;
import hudson.tasks.Builder;
import org.htmlunit.html.HtmlForm;
import org.htmlunit.html.HtmlPage;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.TestExtension;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;
import org.kohsuke.stapler.DataBoundConstructor;

/**
 * Each form of the plugin rendered, submitted unchanged and bound again ({@code configRoundtrip}): what an
 * administrator or author set must come back as they set it. The steps have no page of their own; they are
 * nested in a test builder's form as the snippet generator nests them.
 */
@WithJenkins
class ConfigRoundtripTest {
    private JenkinsRule j;

    @BeforeEach
    void setUp(final JenkinsRule rule) {
        j = rule;
    }

    private <T extends Builder> T roundtrip(final T holder) throws Exception {
        FreeStyleProject p = j.createFreeStyleProject();
        p.getBuildersList().add(holder);
        j.configRoundtrip(p);
        @SuppressWarnings("unchecked")
        T after = (T) p.getBuildersList().get(holder.getClass());
        assertThat(after).isNotSameAs(holder);
        return after;
    }

    @Test
    void shouldKeepEveryOptionOfTheStepThroughItsForm() throws Exception {
        WithSchedPolicyStep step = new WithSchedPolicyStep("batch");
        step.setNice(17);
        step.setIo("be:6");
        step.setCpuQuota(50);
        step.setCpuWeight(20);
        step.setCpuIdle(false); // true and a weight do not combine
        step.setCpus("0");
        step.setOnUnsupported("warn");
        WithSchedPolicyStep after = roundtrip(new StepHolder(step)).getStep();
        j.assertEqualDataBoundBeans(step, after);
        assertThat(after.requested()).isEqualTo(step.requested());
    }

    @Test
    void shouldKeepAnIdleCgroupChoiceOfTheStepThroughItsForm() throws Exception {
        WithSchedPolicyStep step = new WithSchedPolicyStep(null);
        step.setCpuIdle(true);
        step.setCpuQuota(150);
        WithSchedPolicyStep after = roundtrip(new StepHolder(step)).getStep();
        assertThat(after.getCpuIdle()).isTrue();
        assertThat(after.requested()).isEqualTo(step.requested());
    }

    /** The form's blank "inherit" choice must come back unset, not false: false would turn an enclosing cpu-idle off. */
    @Test
    void shouldKeepUnsetOptionsOfTheStepUnset() throws Exception {
        WithSchedPolicyStep after = roundtrip(new StepHolder(new WithSchedPolicyStep("idle"))).getStep();
        assertThat(after.getPolicy()).isEqualTo("idle");
        assertThat(after.getCpuIdle()).isNull();
        assertThat(after.getNice()).isNull();
        assertThat(after.getOnUnsupported()).isNull();
        assertThat(after.requested()).isEqualTo("idle");
    }

    @Test
    void shouldKeepTheBenchmarkStepThroughItsForm() throws Exception {
        BenchmarkStep step = new BenchmarkStep("compile-vs-test");
        step.setQuick(false);
        step.setPolicies("default,idle");
        step.setLoads("1,2");
        step.setRepetitions(3);
        step.setVictim("./mvnw -q test");
        step.setBackground("make -j4");
        step.setGatePolicy("nice19");
        step.setUnstableBelow(85);
        step.setFailBelow(50);
        BenchmarkStep after = roundtrip(new BenchmarkHolder(step)).getStep();
        j.assertEqualDataBoundBeans(step, after);
    }

    @Test
    void shouldKeepEveryOptionOfTheWrapperThroughTheJobForm() throws Exception {
        FreeStyleProject p = j.createFreeStyleProject();
        SchedPolicyWrapper w = new SchedPolicyWrapper("batch");
        w.setNice(19);
        w.setCpuQuota(150);
        w.setCpuWeight(5);
        w.setCpuIdle(false);
        w.setCpus("0-1");
        w.setOnUnsupported("warn");
        p.getBuildWrappersList().add(w);
        j.configRoundtrip(p);
        SchedPolicyWrapper after = p.getBuildWrappersList().get(SchedPolicyWrapper.class);
        assertThat(after).isNotSameAs(w);
        j.assertEqualDataBoundBeans(w, after);
        assertThat(after.getCpuIdle()).as("false is a choice of its own, not unset").isFalse();
    }

    @Test
    void shouldKeepTheGlobalConfigurationThroughTheSystemForm() throws Exception {
        SchedPolicyConfiguration c = SchedPolicyConfiguration.get();
        c.setDefaultPolicy("batch+nice10+warn");
        c.setCgroupParent("/sys/fs/cgroup/cpu/schedpolicy");
        c.setAllowAboveDefault(true);
        c.setAllowRaise(true);
        c.setMinNice(-5);
        c.setAllowCgroups(false);
        c.setMaxQuotaPercent(150);
        c.setHandshakeTimeoutSeconds(12);
        c.setGuardJobs("tests|team-a/.*");
        c.setGuardStages("(?i)test");
        c.setGuardWholeJobs("nightly|team-b/.*");
        c.setGuardLabel("test-pool && !build");
        j.configRoundtrip();
        assertThat(c.getDefaultPolicy()).isEqualTo("batch+nice10+warn");
        assertThat(c.getCgroupParent()).isEqualTo("/sys/fs/cgroup/cpu/schedpolicy");
        assertThat(c.isAllowAboveDefault()).isTrue();
        assertThat(c.isAllowRaise()).isTrue();
        assertThat(c.getMinNice()).isEqualTo(-5);
        assertThat(c.isAllowCgroups()).isFalse();
        assertThat(c.getMaxQuotaPercent()).isEqualTo(150);
        assertThat(c.getHandshakeTimeoutSeconds()).isEqualTo(12);
        assertThat(c.getGuardJobs()).isEqualTo("tests|team-a/.*");
        assertThat(c.getGuardStages()).isEqualTo("(?i)test");
        assertThat(c.getGuardWholeJobs()).isEqualTo("nightly|team-b/.*");
        assertThat(c.getGuardLabel()).isEqualTo("test-pool && !build");
    }

    @Test
    void shouldKeepTheDefaultsOfAFreshInstallationThroughTheSystemForm() throws Exception {
        j.configRoundtrip();
        SchedPolicyConfiguration c = SchedPolicyConfiguration.get();
        assertThat(c.getDefaultPolicy()).isNull();
        assertThat(c.getCgroupParent()).isNull();
        assertThat(c.getGuardJobs()).as("no job may guard unless an administrator says so").isNull();
        assertThat(c.getGuardStages()).as("no stage is guarded unless an administrator says so").isNull();
        assertThat(c.getGuardWholeJobs()).as("no job is guarded unless an administrator says so").isNull();
        assertThat(c.getGuardLabel()).as("no node is guarded unless an administrator says so").isNull();
        assertThat(c.isAllowCgroups()).isTrue();
        assertThat(c.isAllowRaise()).isFalse();
        assertThat(c.getMinNice()).isZero();
        assertThat(c.getHandshakeTimeoutSeconds()).isEqualTo(SchedPolicyConfiguration.DEFAULT_TIMEOUT_SECONDS);
    }

    /** A bad default typed into the System page is refused with the engine's words, and nothing of the form is stored. */
    @Test
    void shouldRefuseABadDefaultPolicyTypedIntoTheSystemForm() throws Exception {
        JenkinsRule.WebClient wc = j.createWebClient();
        wc.setThrowExceptionOnFailingStatusCode(false);
        HtmlForm form = wc.goTo("configure").getFormByName("config");
        form.getInputByName("_.defaultPolicy").setValue("turbo");
        form.getInputByName("_.maxQuotaPercent").setValue("150");
        HtmlPage answer = j.submit(form);
        assertThat(answer.getWebResponse().getStatusCode()).isEqualTo(400);
        assertThat(answer.asNormalizedText()).contains("unknown policy token 'turbo'");
        assertThat(SchedPolicyConfiguration.get().getDefaultPolicy()).isNull();
        assertThat(SchedPolicyConfiguration.get().getMaxQuotaPercent()).isZero();
    }

    /** Holds a {@link WithSchedPolicyStep} in a freestyle job, so that its form can be rendered and submitted. */
    public static final class StepHolder extends Builder {
        private final WithSchedPolicyStep step;

        @DataBoundConstructor
        public StepHolder(final WithSchedPolicyStep step) {
            this.step = step;
        }

        public WithSchedPolicyStep getStep() {
            return step;
        }

        @TestExtension
        public static final class DescriptorImpl extends BuildStepDescriptor<Builder> {
            @Override
            public boolean isApplicable(final Class<? extends AbstractProject> type) {
                return true;
            }
        }
    }

    /** The same for {@link BenchmarkStep}. */
    public static final class BenchmarkHolder extends Builder {
        private final BenchmarkStep step;

        @DataBoundConstructor
        public BenchmarkHolder(final BenchmarkStep step) {
            this.step = step;
        }

        public BenchmarkStep getStep() {
            return step;
        }

        @TestExtension
        public static final class DescriptorImpl extends BuildStepDescriptor<Builder> {
            @Override
            public boolean isApplicable(final Class<? extends AbstractProject> type) {
                return true;
            }
        }
    }
}
