package dev.schedpolicy.jenkins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import hudson.model.Item;
import hudson.model.Result;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import jenkins.model.Jenkins;
import org.jenkinsci.plugins.workflow.cps.CpsFlowDefinition;
import org.jenkinsci.plugins.workflow.job.WorkflowJob;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.MockAuthorizationStrategy;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

/**
 * withSchedGuard on the built-in node, through the real step, launcher and engine: refused in one line for a job the
 * administrator did not allow (the body runs as it would), and for an allowed job the agent's guard lowers another
 * build's launch while the guarded step waits beside it on one CPU, with one summary line at the end.
 */
@WithJenkins
class WithSchedGuardStepTest {
    private static final String BUSY = "while :; do :; done";
    private JenkinsRule j;

    @BeforeEach
    void setUp(final JenkinsRule rule) {
        j = rule;
        assumeTrue(System.getProperty("os.name").startsWith("Linux"), "scheduling policies are Linux-only");
    }

    private WorkflowJob job(final String name, final String script) throws Exception {
        WorkflowJob p = j.jenkins.createProject(WorkflowJob.class, name);
        p.setDefinition(new CpsFlowDefinition(script, true));
        return p;
    }

    private static long count(final List<String> log, final String prefix) {
        return log.stream().filter(l -> l.startsWith(prefix)).count();
    }

    @Test
    void shouldRunTheBodyUnguardedWithOneLineWhenTheJobIsNotAllowed() throws Exception {
        SchedPolicyConfiguration.get().setGuardJobs("tests");
        WorkflowRun b = j.buildAndAssertSuccess(job("other", "node { withSchedGuard { sh 'echo body-ran' } }"));
        List<String> log = b.getLog(1000);
        assertThat(count(log, "[schedpolicy] withSchedGuard: not guarded, job 'other' is not among the jobs an administrator"
                + " lets guard")).isEqualTo(1);
        j.assertLogContains("body-ran", b);
        j.assertLogNotContains("[schedpolicy] guard:", b);
        // nothing polices the body: no launch went through the agent's handshake
        j.assertLogNotContains("verified", b);
    }

    @Test
    void shouldLetNobodyGuardByDefault() throws Exception {
        WorkflowRun b = j.buildAndAssertSuccess(job("tests", "node { withSchedGuard { sh 'true' } }"));
        j.assertLogContains("[schedpolicy] withSchedGuard: not guarded, job 'tests' is not among the jobs", b);
    }

    @Test
    void shouldLowerAnotherBuildsLaunchWhileTheGuardedStepWaitsAndSayItInOneLine() throws Exception {
        Path taskset = Path.of("/usr/bin/taskset");
        assumeTrue(Files.isExecutable(taskset), "needs taskset (util-linux) to share one CPU");
        SchedPolicyConfiguration.get().setGuardJobs("tests|team/.*");
        // the other build is measured, so its launch goes through the agent's registry unlowered (policy normal)
        SchedPolicyConfiguration.get().setMeasureAllSteps(true);
        WorkflowRun hog = job("hog", "node { sh 'echo hog-started; taskset -c 0 sh -c \"" + BUSY + "\" & wait' }")
                .scheduleBuild2(0).waitForStart();
        j.waitForMessage("hog-started", hog);
        Thread.sleep(500);
        WorkflowRun b = j.buildAndAssertSuccess(job("tests",
                "node { withSchedGuard { sh 'timeout 3 taskset -c 0 sh -c \"" + BUSY + "\" || true' } }"));
        hog.doStop();
        j.assertBuildStatus(Result.ABORTED, j.waitForCompletion(hog));

        List<String> log = b.getLog(1000);
        assertThat(count(log, "[schedpolicy] guard: ")).as(String.join("\n", log)).isEqualTo(1);
        String line = log.stream().filter(l -> l.startsWith("[schedpolicy] guard: ")).findFirst().orElseThrow();
        assertThat(line).contains("; acted ").contains("lowered 1 launch, ").endsWith(": another launch on this agent; all"
                + " put back");
        j.assertLogNotContains("not guarded", b);

        // the build page and api/json: the same block, the hog named to a viewer who may read job 'hog', counted otherwise
        // as build.xml keeps it (the engine's GuardSummary through XStream and the class filter)
        b.reload();
        GuardBuildAction action = b.getAction(GuardBuildAction.class);
        assertThat(action.getBlocks()).singleElement().satisfies(block -> {
            assertThat(block.getActions()).isPositive();
            assertThat(block.getLoweredLaunches()).isEqualTo(1);
            assertThat(block.getWaitSeconds()).isGreaterThanOrEqualTo(block.getWaitUnloweredSeconds());
        });
        // the lowered build is told: one line at its end, which names no build of another job, and its page
        List<String> hogLog = hog.getLog(1000);
        assertThat(count(hogLog, "[schedpolicy] yielded ")).as(String.join("\n", hogLog)).isEqualTo(1);
        assertThat(hogLog).anySatisfy(l -> assertThat(l).matches("\\[schedpolicy\\] yielded for [0-9.]+ s in all \\([0-9]+"
                + " times?\\) to guarded steps of 1 other build \\([0-9.]+ s\\); details on the build page"));
        hog.reload();
        YieldBuildAction yielded = hog.getAction(YieldBuildAction.class);
        assertThat(yielded.getYieldedTimes()).isPositive();
        assertThat(yielded.getYieldedSeconds()).isPositive();

        j.jenkins.setSecurityRealm(j.createDummySecurityRealm());
        j.jenkins.setAuthorizationStrategy(new MockAuthorizationStrategy()
                .grant(Jenkins.READ).everywhere().to("alice", "bob", "admin")
                .grant(Item.READ).onItems(b.getParent()).to("alice")
                .grant(Item.READ).onItems(hog.getParent()).to("bob")
                .grant(Jenkins.ADMINISTER).everywhere().to("admin"));
        String hogApi = hog.getUrl() + "api/json?tree=actions[yieldedTo,line]";
        JenkinsRule.WebClient bob = j.createWebClient().login("bob");
        assertThat(json(bob, hogApi)).doesNotContain("tests").contains("\"yieldedTo\":[\"1 other build (");
        assertThat(j.createWebClient().login("admin").goTo(hogApi, "application/json").getWebResponse().getContentAsString())
                .contains("\"yieldedTo\":[\"tests #1 (");
        assertThat(bob.getPage(hog).getElementById("schedpolicy-yielded").asNormalizedText())
                .contains("to guarded steps of 1 other build (").doesNotContain("tests");

        // the fleet view's guard column adds up only the builds its viewer may read
        assertThat(guardTimesAs("admin")).satisfies(t -> {
            assertThat(t.actingMillis()).isPositive();
            assertThat(t.yieldedMillis()).isPositive();
        });
        assertThat(guardTimesAs("alice")).as("reads 'tests' only").satisfies(t -> {
            assertThat(t.actingMillis()).isPositive();
            assertThat(t.yieldedMillis()).isZero();
        });
        assertThat(guardTimesAs("bob")).as("reads 'hog' only").satisfies(t -> {
            assertThat(t.actingMillis()).isZero();
            assertThat(t.yieldedMillis()).isPositive();
        });
        String api = b.getUrl() + "api/json?tree=actions[guardedBlocks[lowered,line,actions]]";
        JenkinsRule.WebClient admin = j.createWebClient().login("admin");
        JenkinsRule.WebClient alice = j.createWebClient().login("alice");
        assertThat(json(admin, api)).contains("\"lowered\":[\"hog #1 › sh (no policy)\"]")
                .contains("lowered 1 launch, ").contains(": hog #1 › sh (no policy); all");
        assertThat(json(alice, api)).doesNotContain("hog").contains("\"lowered\":[\"another launch on this agent\"]");
        String page = alice.getPage(b).getElementById("schedpolicy-guard").asNormalizedText();
        assertThat(page).contains(line.substring("[schedpolicy] ".length())).doesNotContain("hog");
        assertThat(admin.getPage(b).getElementById("schedpolicy-guard").asNormalizedText())
                .contains(": hog #1 › sh (no policy); all put back");
    }

    private static dev.schedpolicy.engine.fleet.GuardTimes guardTimesAs(final String user) {
        try (hudson.security.ACLContext ignored = hudson.security.ACL.as2(hudson.model.User.getById(user, true).impersonate2())) {
            return FleetGuardTimes.scan().getOrDefault(FleetProbes.BUILT_IN, new dev.schedpolicy.engine.fleet.GuardTimes(0, 0));
        }
    }

    private static String json(final JenkinsRule.WebClient wc, final String path) throws Exception {
        return wc.goTo(path, "application/json").getWebResponse().getContentAsString();
    }
}
