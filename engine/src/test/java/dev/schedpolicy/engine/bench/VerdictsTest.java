package dev.schedpolicy.engine.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedpolicy.engine.report.BenchReport;
import dev.schedpolicy.engine.report.Stat;
import java.util.List;
import org.junit.jupiter.api.Test;

class VerdictsTest {
    private static BenchReport.Cell cell(final String topology, final String policy, final double load, final List<Double> kept,
            final double bgFree) {
        return new BenchReport.Cell(policy, load, topology, 2, 1, load == 0, "", Stat.of(kept), null, null, null, null,
                Stat.of(List.of(bgFree, bgFree)), null, null, null, null, null, null, null);
    }

    @Test
    void shouldNameWhoProtectsPerTopologyAndTheWorstMissOfTheOthers() {
        List<BenchReport.Cell> cells = List.of(
                cell("same-group", "idle", 0, List.of(100.0, 100.0), 0), // the baseline never counts
                cell("same-group", "idle", 1, List.of(99.5, 99.7), 97),
                cell("same-group", "idle", 2, List.of(99.1, 99.3), 96),
                cell("same-group", "quota50", 1, List.of(100.0, 100.0), 50),
                cell("other-cgroup", "idle", 1, List.of(61.0, 63.0), 97),
                cell("other-cgroup", "idle", 2, List.of(45.0, 47.0), 98),
                cell("other-cgroup", "quota50", 1, List.of(95.0, 104.0), 99));
        List<BenchReport.Verdict> v = Verdicts.of(List.of("same-group", "other-cgroup"), List.of("idle", "quota50", "default"),
                cells);
        assertThat(v.get(0).line()).isEqualTo("same-group: protect idle; fail quota50 (background 50.0% of free CPU at load 1)");
        assertThat(v.get(1).protect()).containsExactly("quota50 (CI ±57.2)");
        assertThat(v.get(1).fail()).containsExactly(new BenchReport.Shortfall("idle", "victim 46.0% at load 2"));
    }
}
