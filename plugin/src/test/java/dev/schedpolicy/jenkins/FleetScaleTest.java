package dev.schedpolicy.jenkins;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedpolicy.engine.cgroup.IdleParent;
import dev.schedpolicy.engine.fleet.AgentSummary;
import dev.schedpolicy.engine.probe.AgentAdvice;
import dev.schedpolicy.engine.probe.Capability;
import dev.schedpolicy.engine.probe.ProbeReport;
import dev.schedpolicy.engine.probe.Recommendation;
import dev.schedpolicy.engine.probe.TaskGroupScope;
import hudson.model.Node;
import hudson.slaves.DumbSlave;
import hudson.slaves.JNLPLauncher;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.jvnet.hudson.test.JenkinsRule;
import org.jvnet.hudson.test.junit.jupiter.WithJenkins;

/**
 * The fleet view at 1,000 agents (issue 24 item 3), as a benchmark: 1,000 nodes (inbound agents that never connect),
 * each given a probe result from a generator through the plugin's own probe queue, which answers after a delay drawn from
 * the live suite's measured warm probes (30-370 ms). Measures the refresh (with at most 16 probes open), the server
 * time and size of the page, api/json, fleet.txt and one agent's page, and the controller's heap; prints them and writes
 * them to target/fleet-scale.txt (docs/jenkins.md quotes them). The real probe through remoting is the live suite's.
 */
@WithJenkins
class FleetScaleTest {
    private JenkinsRule j;
    private static final int AGENTS = Integer.getInteger("schedpolicy.fleetScale.agents", 1000);
    private static final String PARENT = "/sys/fs/cgroup/cpu/schedpolicy.idle";
    private static final String[] LABELS = {"linux", "docker", "arm64", "x86_64", "big", "small", "team-a", "team-b", "team-c"};

    /**
     * One generated agent: the setups a large fleet has, in rough proportions (per 50: 30 fine, 10 in their own cgroup,
     * 4 whose user cannot write cgroups, 2 without the idle parent, 1 without a cpu controller, 2 never probed and 1 whose
     * probe fails); null for one never probed.
     */
    private static AgentSummary generated(final int i) {
        int kind = i % 50;
        if (kind < 30) {
            return summary(true, status(true, true, true), PARENT, 0, "root", "cgroup /system.slice/jenkins-agent.service");
        } else if (kind < 40) {
            return summary(true, status(true, true, true), "/sys/fs/cgroup/cpu/system.slice/jenkins-agent.service", 0, "root",
                    "cgroup /system.slice/jenkins-agent.service");
        } else if (kind < 44) {
            return summary(false, status(true, true, false), "/sys/fs/cgroup/cpu/user.slice", 1001, "jenkins", "cgroup /user.slice");
        } else if (kind < 46) {
            return summary(true, status(false, false, false), "/sys/fs/cgroup/cpu/user.slice", 1001, "jenkins", "cgroup /user.slice");
        } else if (kind < 47) {
            return summary(false, status(false, false, false), null, 0, "root", "unknown");
        } else if (kind == 49) {
            return summary(true, status(true, true, true), PARENT, 0, "root", "cgroup /"); // its probe fails
        }
        return null;
    }

    private static IdleParent.Status status(final boolean exists, final boolean idle, final boolean usable) {
        return new IdleParent.Status(PARENT, exists, idle, usable, exists ? usable ? "usable: groups made and a process moved in"
                : "cannot create groups in " + PARENT + ": permission denied (EACCES)" : "not set up: run schedpolicy setup");
    }

    private static AgentSummary summary(final boolean cgroups, final IdleParent.Status parent, final String launchParent,
            final int euid, final String user, final String taskGroup) {
        List<Capability> caps = new ArrayList<>();
        for (String n : List.of("nice", "io-be", "io-idle", "affinity", "batch", "idle")) {
            caps.add(new Capability(n, true, n + " applied and read back"));
        }
        for (String n : List.of("quota", "weight", "cpu-idle")) {
            caps.add(new Capability(n, cgroups, cgroups ? "scratch group " + launchParent + "/schedpolicy-probe created, limits set,"
                    + " process placed" : "cannot create a cgroup: permission denied (EACCES)"));
        }
        String controller = launchParent == null && taskGroup.equals("unknown") ? "none" : "v1 at /sys/fs/cgroup/cpu";
        ProbeReport probe = new ProbeReport(1, "6.18.44", 8, euid, caps, controller.equals("none") ? "none" : "hybrid", controller,
                launchParent, cgroups, Map.of("sda", "mq-deadline"), true, new TaskGroupScope(taskGroup, 4, 180, List.of(), List.of()));
        return AgentSummary.of(new AgentAdvice(probe, parent, Recommendation.of(probe, parent), null), user);
    }

    private record Fetch(int status, long millis, int bytes, String body) {
    }

    private static Fetch get(final HttpClient http, final String url) throws Exception {
        long t = System.nanoTime();
        HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofByteArray());
        long ms = (System.nanoTime() - t) / 1_000_000;
        return new Fetch(r.statusCode(), ms, r.body().length, new String(r.body(), StandardCharsets.UTF_8));
    }

    /** The first fetch and the median of five more. */
    private static String timed(final HttpClient http, final String url, final List<String> out, final String what) throws Exception {
        Fetch first = get(http, url);
        assertThat(first.status()).as(what).isEqualTo(200);
        long[] ms = new long[5];
        for (int i = 0; i < ms.length; i++) {
            ms[i] = get(http, url).millis();
        }
        Arrays.sort(ms);
        out.add(String.format(Locale.ROOT, "%-32s %8d bytes  first %5d ms  median of 5 %5d ms  (max %d ms)", what, first.bytes(),
                first.millis(), ms[2], ms[4]));
        return first.body();
    }

    private static long heapMb() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / (1024 * 1024);
    }

    @org.junit.jupiter.api.BeforeEach
    void setUp(final JenkinsRule rule) {
        j = rule;
    }

    @Test
    void shouldServeAThousandAgentsPageUnderASecondAndAMegabyte() throws Exception {
        List<String> out = new ArrayList<>();
        long heap0 = heapMb();
        long t = System.nanoTime();
        List<Node> nodes = new ArrayList<>();
        Random random = new Random(1);
        for (int i = 0; i < AGENTS; i++) {
            DumbSlave n = new DumbSlave(String.format(Locale.ROOT, "agent-%04d", i), "/home/jenkins/agent", new JNLPLauncher());
            n.setLabelString(LABELS[i % 4 < 2 ? 0 : 2] + " " + LABELS[3 + random.nextInt(3)] + " " + LABELS[6 + i % 3]
                    + (i % 3 == 0 ? " docker" : ""));
            nodes.add(n);
        }
        j.jenkins.setNodes(nodes);
        out.add(String.format(Locale.ROOT, "%d nodes made in %d ms", AGENTS, (System.nanoTime() - t) / 1_000_000));
        long heap1 = heapMb();

        // the refresh: every agent through the plugin's probe queue, each answering after 30-370 ms
        ScheduledExecutorService agents = Executors.newScheduledThreadPool(8);
        AtomicInteger open = new AtomicInteger();
        AtomicInteger peak = new AtomicInteger();
        t = System.nanoTime();
        int probed = 0;
        for (int i = 0; i < AGENTS; i++) {
            AgentSummary s = generated(i);
            if (s == null) {
                continue;
            }
            probed++;
            String json = s.toJson();
            long delay = 30 + random.nextInt(341);
            boolean fails = i % 50 == 49;
            FleetProbes.get().submit(String.format(Locale.ROOT, "agent-%04d", i), () -> {
                peak.accumulateAndGet(open.incrementAndGet(), Math::max);
                CompletableFuture<String> f = new CompletableFuture<>();
                agents.schedule(() -> {
                    open.decrementAndGet();
                    if (fails) {
                        f.completeExceptionally(new java.io.IOException("the agent went offline"));
                    } else {
                        f.complete(json);
                    }
                }, delay, TimeUnit.MILLISECONDS);
                return f;
            });
        }
        while (FleetProbes.get().size() < probed || open.get() > 0) {
            Thread.sleep(20);
        }
        long refreshMs = (System.nanoTime() - t) / 1_000_000;
        agents.shutdownNow();
        out.add(String.format(Locale.ROOT, "refresh of %d agents (generated answers after 30-370 ms): %d ms, at most %d probes open",
                probed, refreshMs, peak.get()));
        assertThat(peak.get()).isLessThanOrEqualTo(FleetProbes.MAX_IN_FLIGHT);
        long heap2 = heapMb();

        HttpClient http = HttpClient.newHttpClient();
        String base = j.getURL() + "manage/schedpolicy-fleet/";
        String page = timed(http, base, out, "page (50 rows, summary)");
        timed(http, base + "?page=20&sort=name", out, "page 20, by name");
        timed(http, base + "?state=cannot&label=docker", out, "state=cannot, label=docker");
        String json = timed(http, base + "api/json", out, "api/json (all agents)");
        timed(http, base + "api/json?tree=standingOut,summary[nodes,protect,cannot,unknown]", out, "api/json?tree=summary counts");
        timed(http, base + "api/json?size=50", out, "api/json?size=50");
        timed(http, base + "fleet.txt", out, "fleet.txt (all agents)");
        timed(http, base + "agent/agent-0031/", out, "agent/agent-0031/ (one agent)");
        long heap3 = heapMb();
        out.add(String.format(Locale.ROOT, "heap used after GC: %d MB before, %d MB with %d nodes, %d MB with their probes,"
                + " %d MB after the requests", heap0, heap1, AGENTS, heap2, heap3));
        out.add("machine: " + Runtime.getRuntime().availableProcessors() + " CPUs, load average "
                + Files.readString(Path.of("/proc/loadavg")).trim() + ", max heap "
                + Runtime.getRuntime().maxMemory() / (1024 * 1024) + " MB");
        out.forEach(l -> System.out.println("FleetScaleTest: " + l));
        Files.write(Path.of("target", "fleet-scale.txt"), out);

        int cannot = 0;
        for (int i = 0; i < AGENTS; i++) {
            int kind = i % 50;
            cannot += kind >= 30 && kind < 47 ? 1 : 0;
        }
        dev.schedpolicy.engine.fleet.ProbeResult builtIn = FleetProbes.get().result("built-in"); // the test JVM's real probe
        cannot += builtIn != null && builtIn.summary() != null && builtIn.summary().standsOut() ? 1 : 0;
        assertThat(page).contains("id=\"schedpolicy-standing-out\">" + cannot + "<", "rows 1-50 of " + (AGENTS + 1),
                "Set the cgroup parent to the idle parent", "sudo schedpolicy setup --user jenkins");
        assertThat(page.split("<tr [^>]*data-node=").length - 1).as("rows on the first page").isEqualTo(50);
        assertThat(json).contains("\"standingOut\":" + cannot);
        assertThat(page.getBytes(StandardCharsets.UTF_8).length).isLessThan(1_000_000);
    }
}
