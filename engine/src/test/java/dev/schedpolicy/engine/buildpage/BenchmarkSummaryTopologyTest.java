package dev.schedpolicy.engine.buildpage;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class BenchmarkSummaryTopologyTest {
    /** Shaped like a schema 2 report.json: two topologies, each with its cells and verdict. */
    static final String REPORT = """
            {"schemaVersion":2,"scenario":{"name":"seed-cpu-looper"},"machine":{"cpus":2},"run":{"durationSeconds":150},
             "topologies":["same-agent","outside-agent"],"policies":["default","idle"],"loads":[1.0],
             "verdicts":[
              {"topology":"same-agent","protect":["idle"],"fail":[{"policy":"default","reason":"victim 64.1% at load 1"}],
               "title":"Executors of the same agent","meaning":"builds of one agent share its task group"},
              {"topology":"outside-agent","protect":[],"fail":[{"policy":"idle","reason":"victim 48.0% at load 1"}],
               "note":"nothing can protect neighbours outside the agent until 'schedpolicy setup' is run"}],
             "cells":[
              {"topology":"same-agent","policy":"default","load":1.0,"keptPct":{"mean":64.1,"ciHalfWidth":1.5}},
              {"topology":"same-agent","policy":"idle","load":1.0,"keptPct":{"mean":99.4,"ciHalfWidth":0.3}},
              {"topology":"outside-agent","policy":"default","load":1.0,"keptPct":{"mean":55.0}},
              {"topology":"outside-agent","policy":"idle","load":1.0,"keptPct":{"mean":48.0}}]}
            """;

    @Test
    void shouldKeepEachTopologysCellsApartWhileTheWorstCountsForTheGate() {
        BenchmarkSummary s = BenchmarkSummary.fromJson(REPORT);
        assertThat(s.topologies()).containsExactly("same-agent", "outside-agent");
        assertThat(s.keptText("same-agent", "idle", 1.0)).isEqualTo("99.4 ± 0.3");
        assertThat(s.keptText("outside-agent", "idle", 1.0)).isEqualTo("48.0");
        assertThat(s.keptText("elsewhere", "idle", 1.0)).isEqualTo("–");
        assertThat(s.kept("idle", 1.0)).isEqualTo(48.0);
        assertThat(s.worstKept("default")).hasValue(55.0);
    }

    @Test
    void shouldPrintEachVerdictWithItsQuestionAndWhatLimitsIt() {
        BenchmarkSummary s = BenchmarkSummary.fromJson(REPORT);
        assertThat(s.verdicts()).extracting(BenchmarkSummary.TopologyVerdict::heading).containsExactly(
                "Executors of the same agent (same-agent: builds of one agent share its task group)", "outside-agent");
        assertThat(s.verdicts()).extracting(BenchmarkSummary.TopologyVerdict::outcome).containsExactly(
                "protect idle; fail default (victim 64.1% at load 1)", "no policy protects; fail idle (victim 48.0% at load 1)");
        assertThat(s.verdicts().get(0).note()).isNull();
        assertThat(s.verdicts().get(1).note()).contains("schedpolicy setup");
    }

    @Test
    void shouldShowNoTopologiesForASchemaOneReport() {
        BenchmarkSummary s = BenchmarkSummary.fromJson(BenchmarkGateTest.REPORT);
        assertThat(s.topologies()).isEmpty();
        assertThat(s.verdicts()).isEmpty();
        assertThat(s.keptText("default", 1.0)).isEqualTo("64.6 ± 2.1");
    }

    /** Issue 23 item 12: the build page printed "no policy protects" for a topology an aborted run never measured. */
    @Test
    void shouldSayNotMeasuredOnTheBuildPageForATopologyWithoutCells() {
        BenchmarkSummary s = BenchmarkSummary.fromJson(REPORT.replace(
                "\"protect\":[],\"fail\":[{\"policy\":\"idle\",\"reason\":\"victim 48.0% at load 1\"}]", "\"protect\":[],\"fail\":[]"));
        assertThat(s.verdicts().get(1).outcome()).isEqualTo("not measured (no run of this topology finished)");
    }
}
