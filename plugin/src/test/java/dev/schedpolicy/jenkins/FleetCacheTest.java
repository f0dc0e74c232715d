package dev.schedpolicy.jenkins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import hudson.model.FreeStyleProject;
import hudson.slaves.DumbSlave;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

/** The fleet view's cache and its cost per request (issue 23 item 11). */
@WithJenkins
class FleetCacheTest {
    private JenkinsRule j;

    @BeforeEach
    void setUp(final JenkinsRule rule) {
        j = rule;
        assumeTrue(System.getProperty("os.name").startsWith("Linux"), "the probe is Linux-only");
    }

    @Test
    void shouldDropADeletedNodesProbeFromTheCache() throws Exception {
        DumbSlave pod = j.createOnlineSlave();
        String name = pod.getNodeName();
        for (int i = 0; i < 600 && FleetProbes.get().result(name) == null; i++) {
            Thread.sleep(100); // probed on connecting, through remoting, in the agent's JVM
        }
        assertThat(FleetProbes.get().result(name)).as("probed on connecting").isNotNull();
        j.jenkins.removeNode(pod);
        assertThat(FleetProbes.get().result(name)).as("a deleted node's entry").isNull();
    }

    @Test
    void shouldSearchTheBuildsForVerdictsOncePerApiJsonRequest() throws Exception {
        FreeStyleProject p = j.createFreeStyleProject("p");
        j.buildAndAssertSuccess(p);
        List<String> scans = new ArrayList<>();
        Logger logger = Logger.getLogger(FleetBenchmarks.class.getName());
        Handler h = new Handler() {
            @Override
            public void publish(final LogRecord r) {
                if (r.getMessage().contains("searched")) {
                    scans.add(r.getMessage());
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        h.setLevel(Level.FINE);
        Level before = logger.getLevel();
        logger.setLevel(Level.FINE);
        logger.addHandler(h);
        try {
            HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create(j.getURL() + "manage/schedpolicy-fleet/api/json")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.body()).contains("\"standingOut\"", "\"agents\"");
        } finally {
            logger.removeHandler(h);
            logger.setLevel(before);
        }
        assertThat(scans).as("searches of every job's newest builds for one api/json").hasSize(1);
    }
}
