package dev.schedpolicy.jenkins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import hudson.model.Item;
import hudson.model.User;
import hudson.security.ACL;
import hudson.security.ACLContext;
import java.net.URL;
import jenkins.model.Jenkins;
import net.sf.json.JSONObject;
import org.assertj.core.api.SoftAssertions;
import org.htmlunit.WebRequest;
import org.jenkinsci.plugins.workflow.cps.CpsFlowDefinition;
import org.jenkinsci.plugins.workflow.job.WorkflowJob;
import org.jenkinsci.plugins.workflow.job.WorkflowRun;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.MockAuthorizationStrategy;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

/**
 * A measured build's neighbours are shown to a viewer by name only when the viewer may read their job; any other
 * neighbour is "another build", its part of the wait still counted. The fleet view's figures are the viewer's own.
 */
@WithJenkins
class NeighbourVisibilityTest {
    private static final String FLEET = "manage/" + FleetLink.URL + "/";
    /** "red" as a word: the job's name, never a part of "measured" or "Required", nor the charts' colour "--red". */
    private static final String RED = "(?<!-)\\bred\\b";
    private JenkinsRule j;

    @BeforeEach
    void setUp(final JenkinsRule rule) {
        j = rule;
        assumeTrue(System.getProperty("os.name").startsWith("Linux"), "measuring reads Linux' /proc and cgroups");
    }

    @Test
    void shouldNameANeighbourOnlyToViewersWhoMayReadItsJob() throws Exception {
        SchedPolicyConfiguration.get().setMeasureAllSteps(true);
        j.jenkins.setNumExecutors(3);
        WorkflowJob red = j.jenkins.createProject(WorkflowJob.class, "red");
        red.setDefinition(new CpsFlowDefinition("node { sh 'echo heavy-started; for i in 1 2 3; do timeout 8 sh -c "
                + "\"while :; do :; done\" & done; wait; true' }", true));
        WorkflowJob blue = j.jenkins.createProject(WorkflowJob.class, "blue");
        blue.setDefinition(new CpsFlowDefinition("node { sh 'i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done' }", true));
        WorkflowRun heavy = red.scheduleBuild2(0).waitForStart();
        j.waitForMessage("heavy-started", heavy);
        WorkflowRun b = j.buildAndAssertSuccess(blue);
        j.assertBuildStatusSuccess(j.waitForCompletion(heavy));

        boolean systemRead = Jenkins.SYSTEM_READ.getEnabled();
        Jenkins.SYSTEM_READ.setEnabled(true); // the fleet view needs Overall/SystemRead
        try {
            j.jenkins.setSecurityRealm(j.createDummySecurityRealm());
            j.jenkins.setAuthorizationStrategy(new MockAuthorizationStrategy()
                    .grant(Jenkins.ADMINISTER).everywhere().to("admin")
                    .grant(Jenkins.READ, Jenkins.SYSTEM_READ).everywhere().to("alice")
                    .grant(Item.READ).onItems(blue).to("alice"));
            String measure = b.getUrl() + MeasureBuildAction.URL + "/api/json?depth=2";

            JenkinsRule.WebClient admin = j.createWebClient().login("admin");
            assertThat(json(admin, measure)).as("the administrator reads red: it ran beside blue").contains("red #1 › sh (no policy): ");
            JenkinsRule.WebClient alice = j.createWebClient().login("alice");
            // the fleet view's figures one right after the other, as two viewers' pages would ask for them
            String adminShare = builtInShare(admin);
            String aliceShare = builtInShare(alice);
            String adminAgain = builtInShare(admin);

            SoftAssertions softly = new SoftAssertions(); // every place alice could read red, not only the first
            JenkinsRule.WebClient probe = j.createWebClient().login("alice");
            probe.setThrowExceptionOnFailingStatusCode(false);
            softly.assertThat(probe.loadWebResponse(new WebRequest(new URL(j.getURL(), "job/red/"))).getStatusCode())
                    .as("alice reads no red").isEqualTo(404);
            String aliceJson = json(alice, measure);
            softly.assertThat(aliceJson).as("blue #1's measure api/json as alice").doesNotContainPattern(RED)
                    .contains("another build: ");
            softly.assertThat(json(alice, b.getUrl() + "api/json?depth=3")).as("blue #1's api/json").doesNotContainPattern(RED);
            String page = alice.getPage(b).getElementById("schedpolicy-measure-table").asNormalizedText();
            softly.assertThat(page).as("blue #1's page as alice").doesNotContainPattern(RED).contains("another build");
            softly.assertThat(alice.getPage(blue).getWebResponse().getContentAsString()).as("blue's job page")
                    .doesNotContainPattern(RED);
            try (ACLContext ignored = ACL.as2(User.getById("alice", true).impersonate2())) {
                softly.assertThat(blue.getAction(MeasureJobAction.class).getBuildTrendModel()).as("blue's trend")
                        .doesNotContainPattern(RED);
            }

            softly.assertThat(adminShare).as("the administrator's fleet row counts red's launch and blue's").endsWith("over 2 launches");
            softly.assertThat(aliceShare).as("alice's fleet row, right after: her jobs' launches only").endsWith("over 1 launch");
            softly.assertThat(alice.goTo(FLEET + "fleet.txt", "text/plain").getWebResponse().getContentAsString()).as("fleet.txt")
                    .doesNotContainPattern(RED);
            softly.assertThat(alice.goTo(FLEET).getWebResponse().getContentAsString()).as("the fleet page").doesNotContainPattern(RED);
            softly.assertThat(adminAgain).as("and the administrator's again").endsWith("over 2 launches");
            softly.assertAll();
        } finally {
            Jenkins.SYSTEM_READ.setEnabled(systemRead);
        }
    }

    private static String json(final JenkinsRule.WebClient wc, final String path) throws Exception {
        return wc.goTo(path, "application/json").getWebResponse().getContentAsString();
    }

    /** The built-in node's "waiting for a CPU (no policy)" figure in the fleet view's api/json, as this client sees it. */
    private static String builtInShare(final JenkinsRule.WebClient wc) throws Exception {
        JSONObject fleet = JSONObject.fromObject(json(wc, FLEET + "api/json?depth=2"));
        for (Object o : fleet.getJSONArray("agents")) {
            JSONObject row = (JSONObject) o;
            if ("built-in".equals(row.getString("name"))) {
                return row.optString("unloweredWaitShare");
            }
        }
        throw new AssertionError("no built-in row in " + fleet);
    }
}
