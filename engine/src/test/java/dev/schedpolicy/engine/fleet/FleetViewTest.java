package dev.schedpolicy.engine.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedpolicy.engine.cgroup.IdleParent;
import dev.schedpolicy.engine.probe.AgentAdvice;
import dev.schedpolicy.engine.probe.Capability;
import dev.schedpolicy.engine.probe.ProbeReport;
import dev.schedpolicy.engine.probe.Recommendation;
import dev.schedpolicy.engine.probe.TaskGroupScope;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The rows of the fleet view: their order, their probe state, the newest verdicts and the text form. */
class FleetViewTest {
    private static final long NOW = 1_000_000_000L;

    /** An agent whose launch groups go under the idle parent (its cgroup parent). */
    private static AgentSummary summary(final boolean cgroups, final IdleParent.Status parent, final int euid, final String user) {
        List<Capability> caps = new ArrayList<>(List.of(new Capability("nice", true, "ok"), new Capability("idle", true, "ok")));
        caps.add(new Capability("cpu-idle", cgroups, cgroups ? "ok" : "permission denied"));
        ProbeReport probe = new ProbeReport(1, "6.18.0", 2, euid, caps, "hybrid", "v1 at /sys/fs/cgroup/cpu", parent.path(),
                cgroups, Map.of(), true, new TaskGroupScope("cgroup /a", 1, 50, List.of(), List.of()));
        return AgentSummary.of(new AgentAdvice(probe, parent, Recommendation.of(probe, parent), null /* the fleet summary does not read the two questions */), user);
    }

    private static final AgentSummary FINE = summary(true,
            new IdleParent.Status("/sys/fs/cgroup/cpu/schedpolicy.idle", true, true, true, "usable"), 0, "root");
    private static final AgentSummary NO_CGROUPS = summary(false,
            new IdleParent.Status("/sys/fs/cgroup/cpu/schedpolicy.idle", true, true, false, "permission denied"), 65534, "nobody");

    private static FleetRow row(final String name, final boolean builtIn, final ProbeResult probe) {
        return new FleetRow(name, builtIn, List.of("linux"), true, probe, false, null, "none", List.of());
    }

    @Test
    void shouldPutAgentsThatCannotProtectFirstThenUnknownOnesThenTheRestBuiltInFirst() {
        List<FleetRow> rows = new ArrayList<>(List.of(
                row("b-fine", false, ProbeResult.of(FINE, NOW, 900)),
                row("built-in", true, ProbeResult.of(FINE, NOW, 900)),
                row("a-unknown", false, null),
                row("z-bad", false, ProbeResult.of(NO_CGROUPS, NOW, 900)),
                row("c-failed", false, ProbeResult.failed("no answer within 60 s", NOW, 60_000))));
        rows.sort(FleetRow.ORDER);
        assertThat(rows).extracting(FleetRow::node).containsExactly("z-bad", "a-unknown", "c-failed", "built-in", "b-fine");
    }

    @Test
    void shouldWordTheProbeStateWithAgeAndDuration() {
        assertThat(row("a", false, ProbeResult.of(FINE, NOW - 12_000, 1234)).probeState(NOW)).isEqualTo("probed 12 s ago (took 1.2 s)");
        assertThat(row("a", false, ProbeResult.failed("the agent went offline", NOW - 300_000, 10)).probeState(NOW))
                .isEqualTo("probe failed 5 min ago: the agent went offline");
        assertThat(new FleetRow("a", false, List.of(), false, null, false, null, "none", List.of()).probeState(NOW))
                .isEqualTo("never probed (offline)");
        assertThat(new FleetRow("a", false, List.of(), true, null, true, null, "none", List.of()).probeState(NOW))
                .isEqualTo("probing now; never probed");
    }

    @Test
    void shouldRejectAProbeResultWithBothOrNeitherOfSummaryAndError() {
        assertThatThrownBy(() -> new ProbeResult(null, null, NOW, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ProbeResult(FINE, "x", NOW, 1)).isInstanceOf(IllegalArgumentException.class);
    }

    private static String report(final String topology, final String protect, final String failPolicy) {
        return "{\"schemaVersion\":2,\"verdicts\":[{\"topology\":\"" + topology + "\",\"protect\":[\"" + protect + "\"],"
                + "\"fail\":[{\"policy\":\"" + failPolicy + "\",\"reason\":\"victim 45.1% at load 2\"}]}]}";
    }

    @Test
    void shouldKeepTheNewestVerdictPerNodeAndTopologyWhateverTheOrderBuildsComeIn() {
        LatestVerdicts latest = new LatestVerdicts();
        latest.offer("a", "bench #2", "job/bench/2/", 2000, report("other-cgroup", "cpu-idle", "idle"));
        latest.offer("a", "bench #1", "job/bench/1/", 1000, report("other-cgroup", "idle", "default"));
        latest.offer("a", "other #7", "job/other/7/", 1500, report("same-session", "idle", "default"));
        latest.offer("b", "bench #3", "job/bench/3/", 3000, "not json");
        List<NodeVerdict> a = latest.forNode("a");
        assertThat(a).extracting(NodeVerdict::build).containsExactly("bench #2", "other #7");
        assertThat(a.get(0).verdict().line()).isEqualTo("other-cgroup: protect cpu-idle; fail idle (victim 45.1% at load 2)");
        assertThat(latest.forNode("b")).isEmpty();
    }

    @Test
    void shouldListANodesVerdictsInTheOrderOfBenchsQuestions() {
        LatestVerdicts latest = new LatestVerdicts();
        latest.offer("a", "bench #1", "job/bench/1/", 1000, report("outside-agent", "cpu-idle", "idle"));
        latest.offer("a", "bench #1", "job/bench/1/", 1000, report("zz-future", "cpu-idle", "idle"));
        latest.offer("a", "bench #1", "job/bench/1/", 1000, report("other-session", "cpu-idle", "idle"));
        latest.offer("a", "bench #1", "job/bench/1/", 1000, report("same-agent", "idle", "default"));
        assertThat(latest.forNode("a")).extracting(v -> v.verdict().topology())
                .containsExactly("same-agent", "outside-agent", "other-session", "zz-future");
    }

    @Test
    void shouldSkipATopologyWhereAnAbortedRunMeasuredNoPolicy() {
        String aborted = "{\"schemaVersion\":2,\"partial\":true,\"verdicts\":[{\"topology\":\"other-session\",\"protect\":[],"
                + "\"fail\":[]},{\"topology\":\"same-agent\",\"protect\":[\"idle\"],\"fail\":[]}]}";
        assertThat(TopologyVerdict.fromReport(aborted)).extracting(TopologyVerdict::topology).containsExactly("same-agent");
    }

    @Test
    void shouldReadNoVerdictsFromASchemaOneReport() {
        assertThat(TopologyVerdict.fromReport("{\"schemaVersion\":1,\"cells\":[]}")).isEmpty();
        assertThat(new TopologyVerdict("machine", List.of(), List.of("default (victim 40.0% at load 1)")).line())
                .isEqualTo("machine: no policy protects; fail default (victim 40.0% at load 1)");
    }

    @Test
    void shouldRenderTextWithOneMarkedLinePerNodeAndTheFixForThoseThatStandOut() {
        List<NodeVerdict> verdicts = List.of(new NodeVerdict(new TopologyVerdict("machine", List.of("cpu-idle"), List.of()),
                "bench #4", "job/bench/4/", NOW));
        List<FleetRow> rows = List.of(
                new FleetRow("nobody-agent", false, List.of("x"), true, ProbeResult.of(NO_CGROUPS, NOW - 3000, 800), false,
                        "nice12", "node property", List.of()),
                new FleetRow("built-in", true, List.of(), true, ProbeResult.of(FINE, NOW - 3000, 800), false, null, "none", verdicts),
                new FleetRow("gone", false, List.of(), false, null, false, "idle", "global configuration", List.of()));
        String text = FleetText.render(rows, NOW);
        List<String> lines = text.lines().toList();
        assertThat(lines.get(0)).isEqualTo("Sched Policy fleet: 3 nodes, 1 cannot protect test jobs in other task groups");
        assertThat(lines.get(1)).startsWith("           NODE").contains("REACH", "DEFAULT");
        assertThat(text).containsPattern("(?m)^STANDS-OUT nobody-agent +online +6\\.18\\.0 +hybrid +not-writable +not-usable"
                + " +task-group +idle +nice12 \\(node property\\)$");
        assertThat(text).contains("fix: sudo schedpolicy setup --user nobody  # ");
        assertThat(text).containsPattern("(?m)^ok +built-in +online .* machine +cpu-idle under /sys/fs/cgroup/cpu/schedpolicy.idle +none$");
        assertThat(text).contains("benchmark machine: protect cpu-idle [bench #4]");
        assertThat(text).containsPattern("(?m)^ok +gone +offline +\\? .* idle \\(global configuration\\)$");
        assertThat(text).contains("probe: never probed (offline)");
    }
}
