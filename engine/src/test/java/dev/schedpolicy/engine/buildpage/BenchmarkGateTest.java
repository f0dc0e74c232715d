package dev.schedpolicy.engine.buildpage;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BenchmarkGateTest {
    /** Shaped like the bench report.json, schema 1 (extra fields are ignored). */
    static final String REPORT = """
            {"schemaVersion":1,"tool":"schedpolicy","partial":false,
             "scenario":{"name":"seed-cpu-looper","title":"CPU victim vs loopers"},
             "machine":{"cpus":2},"run":{"durationSeconds":170.5},
             "policies":["default","idle"],"loads":[1.0,2.0],
             "cells":[
              {"policy":"default","load":1.0,"keptPct":{"mean":64.6,"ciHalfWidth":2.1},"backgroundFreeCpuPct":{"mean":99.0}},
              {"policy":"default","load":2.0,"keptPct":{"mean":40.2,"ciHalfWidth":1.0}},
              {"policy":"idle","load":1.0,"keptPct":{"mean":95.0,"ciHalfWidth":0.5},"backgroundFreeCpuPct":{"mean":90.0}},
              {"policy":"idle","load":2.0,"keptPct":{"mean":92.4,"ciHalfWidth":0.0}},
              {"policy":"unknown","load":2.0,"keptPct":{"mean":1.0}}],
             "warnings":["CI half-width above 2 points"]}
            """;

    @Test
    void shouldReadTheCellsThePagesShow() {
        BenchmarkSummary s = BenchmarkSummary.fromJson(REPORT);
        assertThat(s.scenario()).isEqualTo("seed-cpu-looper");
        assertThat(s.policies()).containsExactly("default", "idle");
        assertThat(s.kept("idle", 2.0)).isEqualTo(92.4);
        assertThat(s.keptText("default", 1.0)).isEqualTo("64.6 ± 2.1");
        assertThat(s.keptText("idle", 2.0)).isEqualTo("92.4");
        assertThat(s.keptText("idle", 3.0)).isEqualTo("–");
        assertThat(s.worstKept("default")).hasValue(40.2);
        assertThat(s.warnings()).containsExactly("CI half-width above 2 points");
        assertThat(s.chartData()).isEqualTo("{\"loads\":[\"1\",\"2\"],\"series\":["
                + "{\"policy\":\"default\",\"kept\":[64.6,40.2],\"backgroundFree\":[99.0,null]},"
                + "{\"policy\":\"idle\",\"kept\":[95.0,92.4],\"backgroundFree\":[90.0,null]}]}");
    }

    @Test
    void shouldRefuseAnotherSchemaVersion() {
        assertThatThrownBy(() -> BenchmarkSummary.fromJson("{\"schemaVersion\":3}"))
                .hasMessageContaining("schema version 3 is not supported");
        assertThatThrownBy(() -> BenchmarkSummary.fromJson("not json")).hasMessageContaining("not valid JSON");
    }

    @Test
    void shouldJudgeTheWorstLoadOfTheGatePolicy() {
        BenchmarkSummary s = BenchmarkSummary.fromJson(REPORT);
        assertThat(new BenchmarkGate("idle", 90, 50).evaluate(s).outcome()).isEqualTo(BenchmarkGate.Outcome.PASS);
        BenchmarkGate.Verdict v = new BenchmarkGate("idle", 95, 0).evaluate(s);
        assertThat(v.outcome()).isEqualTo(BenchmarkGate.Outcome.UNSTABLE);
        assertThat(v.message()).isEqualTo("under 'idle' the test job kept 92.4% of its unloaded rate at worst, below the unstable threshold 95.0%");
        assertThat(new BenchmarkGate("default", 90, 50).evaluate(s).outcome()).isEqualTo(BenchmarkGate.Outcome.FAILURE);
        assertThat(new BenchmarkGate("nice19", 90, 0).evaluate(s).message()).contains("measured: default, idle");
        assertThat(new BenchmarkGate("idle", 0, 0).enabled()).isFalse();
    }

    @Test
    void shouldRejectThresholdsOutsidePercent() {
        assertThatThrownBy(() -> new BenchmarkGate("idle", 120, 0)).hasMessageContaining("0..100");
        assertThatThrownBy(() -> new BenchmarkGate(" ", 50, 0)).hasMessageContaining("gatePolicy");
    }

    /**
     * Issue 23 item 6: the quick preset measures outside-agent too, where per-task policies fail by design; judging the
     * worst topology made the default gate (gatePolicy 'idle') UNSTABLE on every run.
     */
    @Test
    void shouldJudgeTheTopologyThePolicyIsForAndSayWhich() {
        BenchmarkSummary s = BenchmarkSummary.fromJson(BenchmarkSummaryTopologyTest.REPORT);
        BenchmarkGate.Verdict idle = new BenchmarkGate("idle", 80, 0).evaluate(s);
        assertThat(idle.outcome()).isEqualTo(BenchmarkGate.Outcome.PASS);
        assertThat(idle.message()).isEqualTo("under 'idle' in same-agent (executors of the same agent, the default for 'idle') the test job"
                + " kept 99.4% of its unloaded rate at worst, at or above the thresholds");
        BenchmarkGate.Verdict outside = new BenchmarkGate("idle", "outside-agent", 80, 0).evaluate(s);
        assertThat(outside.outcome()).isEqualTo(BenchmarkGate.Outcome.UNSTABLE);
        assertThat(outside.message()).startsWith("under 'idle' in outside-agent (neighbours outside the agent) the test job kept 48.0%");
        assertThat(new BenchmarkGate("idle", "other-cgroup", 80, 0).topology()).isEqualTo("outside-agent");
        assertThat(new BenchmarkGate("idle", "container", 80, 0).evaluate(s).message())
                .contains("has no measured cell in container").contains("in same-agent, outside-agent");
        assertThatThrownBy(() -> new BenchmarkGate("idle", "moon", 80, 0)).hasMessageContaining("gateTopology: unknown topology 'moon'");
    }

    @Test
    void shouldJudgeACgroupPolicyOutsideTheAgentWhereMeasuredElseOnTheSameAgent() {
        String both = BenchmarkSummaryTopologyTest.REPORT.replace("\"default\",\"idle\"]", "\"default\",\"cpu-idle\"]")
                .replace("\"policy\":\"idle\"", "\"policy\":\"cpu-idle\"");
        BenchmarkSummary s = BenchmarkSummary.fromJson(both);
        assertThat(BenchmarkGate.topologyFor("cpu-idle", null, s)).isEqualTo("outside-agent");
        assertThat(BenchmarkGate.topologyFor("quota50", null, s)).isEqualTo("outside-agent");
        assertThat(BenchmarkGate.topologyFor("batch+nice19", null, s)).isEqualTo("same-agent");
        assertThat(new BenchmarkGate("cpu-idle", 80, 0).evaluate(s).message()).contains("in outside-agent").contains("48.0%");
        BenchmarkSummary sameOnly = BenchmarkSummary.fromJson(both.replace(",\"outside-agent\"]", "]"));
        assertThat(BenchmarkGate.topologyFor("cpu-idle", null, sameOnly)).isEqualTo("same-agent");
        assertThat(BenchmarkGate.topologyFor("cpu-idle", null, BenchmarkSummary.fromJson(REPORT))).as("schema 1: one topology").isNull();
    }
}
