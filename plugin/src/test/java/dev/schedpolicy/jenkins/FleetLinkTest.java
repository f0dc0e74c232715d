package dev.schedpolicy.jenkins;

import static org.assertj.core.api.Assertions.assertThat;

import hudson.model.Label;
import hudson.slaves.DumbSlave;
import java.net.URL;
import jenkins.model.Jenkins;
import net.sf.json.JSONArray;
import net.sf.json.JSONObject;
import org.htmlunit.HttpMethod;
import org.htmlunit.WebRequest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.MockAuthorizationStrategy;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

/**
 * Manage Jenkins &gt; Sched Policy: who may read it and who may probe the agents, and what {@code api/json} says about a
 * node once its probe (the engine's, run on the node for real) has answered.
 */
@WithJenkins
class FleetLinkTest {
    private static final String FLEET = "manage/" + FleetLink.URL + "/";
    private JenkinsRule j;

    @BeforeEach
    void setUp(final JenkinsRule rule) {
        j = rule;
    }

    private int status(final JenkinsRule.WebClient wc, final HttpMethod method, final String path) throws Exception {
        WebRequest request = new WebRequest(new URL(j.getURL(), path), method);
        if (method == HttpMethod.POST) {
            wc.addCrumb(request);
        }
        // the response itself: a page would follow the 403 page's refresh to the login form (200)
        return wc.loadWebResponse(request).getStatusCode();
    }

    private JenkinsRule.WebClient client(final String user) throws Exception {
        JenkinsRule.WebClient wc = j.createWebClient();
        wc.setThrowExceptionOnFailingStatusCode(false);
        wc.getOptions().setRedirectEnabled(false);
        return user == null ? wc : wc.login(user);
    }

    @Test
    void shouldShowThePageToSystemReadersAndLetOnlyAdministratorsProbe() throws Exception {
        boolean systemRead = Jenkins.SYSTEM_READ.getEnabled();
        Jenkins.SYSTEM_READ.setEnabled(true); // off unless jenkins.security.SystemReadPermission=true
        try {
            j.jenkins.setSecurityRealm(j.createDummySecurityRealm());
            j.jenkins.setAuthorizationStrategy(new MockAuthorizationStrategy()
                    .grant(Jenkins.ADMINISTER).everywhere().to("admin")
                    .grant(Jenkins.READ).everywhere().to("reader", "plain")
                    .grant(Jenkins.SYSTEM_READ).everywhere().to("reader"));
            assertThat(status(client(null), HttpMethod.GET, FLEET)).as("anonymous").isEqualTo(403);
            JenkinsRule.WebClient plain = client("plain");
            assertThat(new int[] {status(plain, HttpMethod.GET, FLEET), status(plain, HttpMethod.GET, FLEET + "api/json"),
                    status(plain, HttpMethod.GET, FLEET + "fleet.txt")}).as("Overall/Read only").containsExactly(403, 403, 403);
            JenkinsRule.WebClient reader = client("reader");
            assertThat(new int[] {status(reader, HttpMethod.GET, FLEET), status(reader, HttpMethod.GET, FLEET + "api/json"),
                    status(reader, HttpMethod.POST, FLEET + "refresh")}).as("Overall/SystemRead").containsExactly(200, 200, 403);
            assertThat(reader.goTo(FLEET).getElementById("schedpolicy-refresh")).as("no refresh button without Administer").isNull();
            JenkinsRule.WebClient admin = client("admin");
            assertThat(status(admin, HttpMethod.GET, FLEET + "refresh")).as("refresh by GET").isEqualTo(404);
            assertThat(status(admin, HttpMethod.POST, FLEET + "refresh")).as("refresh by POST with a crumb").isEqualTo(302);
            assertThat(admin.goTo(FLEET).getElementById("schedpolicy-refresh")).isNotNull();
        } finally {
            Jenkins.SYSTEM_READ.setEnabled(systemRead);
        }
    }

    private JSONObject fleet(final String query) throws Exception {
        return JSONObject.fromObject(j.createWebClient().goTo(FLEET + "api/json" + query, "application/json")
                .getWebResponse().getContentAsString());
    }

    /** The strings of a JSON array, or each element's {@code key}. */
    private static java.util.List<String> strings(final JSONArray array, final String key) {
        java.util.List<String> out = new java.util.ArrayList<>();
        for (Object o : array) {
            out.add(key == null ? o.toString() : ((JSONObject) o).getString(key));
        }
        return out;
    }

    private static JSONObject row(final JSONObject fleet, final String name) {
        for (Object o : fleet.getJSONArray("agents")) {
            if (name.equals(((JSONObject) o).getString("name"))) {
                return (JSONObject) o;
            }
        }
        throw new AssertionError("no row " + name + " in " + fleet);
    }

    @Test
    void shouldReportTheProbedBuiltInNodeInApiJson() throws Exception {
        j.jenkins.getNodeProperties().add(new SchedPolicyNodeProperty("batch+nice10"));
        assertThat(status(client(null), HttpMethod.POST, FLEET + "refresh?node=built-in")).isEqualTo(302);
        JSONObject builtIn = null;
        for (int i = 0; i < 600; i++) {
            builtIn = row(fleet(""), "built-in");
            if (!builtIn.optBoolean("probing") && builtIn.get("agent") instanceof JSONObject) {
                break;
            }
            Thread.sleep(100);
        }
        assertThat(builtIn.get("agent")).as("the probe's answer within 60 s: " + builtIn).isInstanceOf(JSONObject.class);
        assertThat(builtIn.getBoolean("builtIn")).isTrue();
        assertThat(builtIn.getString("agentDefault")).isEqualTo("batch+nice10");
        assertThat(builtIn.getString("agentDefaultSource")).isEqualTo("node property");
        JSONObject agent = builtIn.getJSONObject("agent");
        assertThat(agent.getString("reach")).isIn("MACHINE", "AGENT_GROUP", "TASK_GROUP");
        assertThat(agent.getString("kernel")).isEqualTo(System.getProperty("os.version"));
        assertThat(agent.getInt("cpus")).isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(strings(builtIn.getJSONArray("capabilities"), "name")).contains("nice", "idle");
        assertThat(j.createWebClient().goTo(FLEET + "fleet.txt", "text/plain").getWebResponse().getContentAsString()).contains("built-in");
    }

    /** {@code tree=} works as on every Jenkins API: only the fields asked for. */
    @Test
    void shouldAnswerOnlyTheFieldsATreeAsksFor() throws Exception {
        JSONObject fleet = fleet("?tree=agents[name,online]");
        JSONArray agents = fleet.getJSONArray("agents");
        assertThat(agents.size()).isEqualTo(1);
        assertThat(agents.getJSONObject(0).keySet()).containsExactlyInAnyOrder("name", "online");
        assertThat(fleet.has("standingOut")).isFalse();
    }

    @Test
    void shouldFilterByLabelAndSayWhenTheExpressionIsBad() throws Exception {
        DumbSlave fast = j.createSlave("fast-one", "fast linux", null);
        j.createSlave("slow-one", "slow", null);
        JSONObject filtered = fleet("?label=fast%26%26linux");
        assertThat(filtered.getString("label")).isEqualTo("fast&&linux");
        assertThat(strings(filtered.getJSONArray("agents"), "name")).containsExactly(fast.getNodeName());
        assertThat(strings(row(filtered, "fast-one").getJSONArray("labels"), null)).containsExactly("fast", "linux");
        JSONObject bad = fleet("?label=%26%26");
        assertThat(bad.getString("labelError")).startsWith("not a label expression");
        assertThat(bad.getJSONArray("agents").size()).as("every node rather than none").isEqualTo(3);
        assertThat(Label.parseExpression("fast&&linux").matches(fast)).isTrue();
    }
}
