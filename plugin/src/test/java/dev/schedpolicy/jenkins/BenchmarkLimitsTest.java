package dev.schedpolicy.jenkins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import hudson.model.Computer;
import hudson.model.Item;
import hudson.model.Result;
import hudson.model.User;
import java.util.concurrent.TimeUnit;
import jenkins.model.Jenkins;
import jenkins.security.QueueItemAuthenticatorConfiguration;
import org.jenkinsci.plugins.workflow.cps.CpsFlowDefinition;
import org.jenkinsci.plugins.workflow.job.WorkflowJob;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.MockAuthorizationStrategy;
import org.jvnet.hudson.test.MockQueueItemAuthenticator;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

/**
 * Issue 31 item 14: schedBenchmark loads an agent that other builds share, so administrators cap what one benchmark may
 * ask for (load, repetitions, length; global configuration) and who may run one at all (Job/SchedBenchmark, checked
 * against the user the build runs as). Each refusal is one console line that says the cap or the permission and where
 * it is set; nothing of the benchmark starts.
 */
@WithJenkins
class BenchmarkLimitsTest {
    /** Over any cap below 50 repetitions; never started when refused (a started one would run for minutes). */
    private static final String BENCHMARK = "node { schedBenchmark(scenario: 'seed-cpu-looper', quick: true, policies: 'default', loads: '1',"
            + " repetitions: 40) }";
    private JenkinsRule j;

    @BeforeEach
    void setUp(final JenkinsRule rule) {
        j = rule;
    }

    private WorkflowJob job(final String name) throws Exception {
        WorkflowJob p = j.jenkins.createProject(WorkflowJob.class, name);
        p.setDefinition(new CpsFlowDefinition(BENCHMARK, true));
        return p;
    }

    /** The console's [schedpolicy] ERROR lines and the absence of a stack trace. */
    private void assertRefusedInOneLine(final WorkflowRun b, final String text) throws Exception {
        j.assertBuildStatus(Result.FAILURE, b);
        j.assertLogContains(text, b);
        String log = JenkinsRule.getLog(b);
        assertThat(log.lines().filter(l -> l.contains(text))).as(log).hasSize(1);
        assertThat(log).as("no stack trace").doesNotContain("\tat ").doesNotContain("[schedpolicy] benchmark:");
    }

    @Test
    void shouldRefuseRepetitionsAboveTheAdministratorsCapBeforeAnythingRuns() throws Exception {
        SchedPolicyConfiguration.get().setBenchmarkMaxRepetitions(5);
        WorkflowRun b = job("capped").scheduleBuild2(0).get(2, TimeUnit.MINUTES);
        assertRefusedInOneLine(b, "[schedpolicy] schedBenchmark asks for 40 repetitions, above the administrator's cap (most"
                + " repetitions: 5, set in Manage Jenkins » System » Sched Policy): use repetitions up to 5");
        assertThat(b.getAction(BenchmarkBuildAction.class)).as("no result stored").isNull();
    }

    @Test
    void shouldRefuseALoadAboveTheCap() throws Exception {
        SchedPolicyConfiguration.get().setBenchmarkMaxLoad(2);
        WorkflowJob p = job("loaded");
        p.setDefinition(new CpsFlowDefinition("node { schedBenchmark(scenario: 'seed-cpu-looper', policies: 'default', loads: '1,64',"
                + " repetitions: 1) }", true));
        assertRefusedInOneLine(p.scheduleBuild2(0).get(2, TimeUnit.MINUTES), "schedBenchmark asks for load 64 (64 background copies per CPU), above the"
                + " administrator's cap (highest load: 2, set in Manage Jenkins » System » Sched Policy): use loads up to 2");
    }

    @Test
    void shouldRefuseAUserWithoutThePermissionAndLetOneWhoHasItThrough() throws Exception {
        j.jenkins.setSecurityRealm(j.createDummySecurityRealm());
        MockAuthorizationStrategy auth = new MockAuthorizationStrategy()
                .grant(Jenkins.READ, Item.READ, Item.BUILD, Computer.BUILD).everywhere().to("dev", "lead")
                .grant(BenchmarkStep.BENCHMARK).onItems(job("lead-job")).to("lead");
        j.jenkins.setAuthorizationStrategy(auth);
        WorkflowJob dev = job("dev-job");
        QueueItemAuthenticatorConfiguration.get().getAuthenticators().add(new MockQueueItemAuthenticator()
                .authenticate("dev-job", User.getById("dev", true).impersonate2())
                .authenticate("lead-job", User.getById("lead", true).impersonate2()));
        assertRefusedInOneLine(dev.scheduleBuild2(0).get(2, TimeUnit.MINUTES), "[schedpolicy] schedBenchmark needs the permission Job/SchedBenchmark on"
                + " dev-job, which dev (who this build runs as) lacks: an administrator grants it under Manage Jenkins » Security");

        // granted: past the permission, the (default) cap is what stops this one
        SchedPolicyConfiguration.get().setBenchmarkMaxRepetitions(5);
        WorkflowRun lead = j.jenkins.getItemByFullName("lead-job", WorkflowJob.class).scheduleBuild2(0).get(2, TimeUnit.MINUTES);
        assertRefusedInOneLine(lead, "schedBenchmark asks for 40 repetitions, above the administrator's cap");
        j.assertLogNotContains("needs the permission", lead);
    }

    @Test
    void shouldRefuseACapOutsideItsRangeSayingWhatIsAllowed() {
        assertThatThrownBy(() -> SchedPolicyConfiguration.get().setBenchmarkMaxRepetitions(101))
                .hasMessage("the benchmark's most repetitions must be 1..100, not 101");
        assertThatThrownBy(() -> SchedPolicyConfiguration.get().setBenchmarkMaxMinutes(0))
                .hasMessage("the benchmark's longest run in minutes must be 1..1440, not 0");
        assertThat(SchedPolicyConfiguration.get().getBenchmarkMaxLoad()).as("the default").isEqualTo(8);
    }
}
