package dev.schedpolicy.engine.buildpage;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class BenchmarkTrendTest {
    private static final BenchmarkTrend.Measured REPORT = new BenchmarkTrend.Measured(BenchmarkSummary.fromJson(BenchmarkGateTest.REPORT),
            null);

    @Test
    void shouldNameTheSeriesByPolicyWhereEveryBuildBenchmarkedOneNode() {
        List<BenchmarkTrend.Series> series = BenchmarkTrend.series(List.of(
                new BenchmarkTrend.Build("#1", 1, Map.of("built-in", REPORT)),
                new BenchmarkTrend.Build("#2", 2, Map.of("built-in", REPORT))));
        assertThat(series).containsExactly(new BenchmarkTrend.Series("default", List.of(40, 40)),
                new BenchmarkTrend.Series("idle", List.of(92, 92)));
    }

    /** A parallel over two agents: before, the trend followed the first benchmark of each build only. */
    @Test
    void shouldShowEachNodesBenchmarkOfABuildAsItsOwnSeries() {
        Map<String, BenchmarkTrend.Measured> both = new LinkedHashMap<>();
        both.put("agent-1", REPORT);
        both.put("agent-2", REPORT);
        List<BenchmarkTrend.Series> series = BenchmarkTrend.series(List.of(
                new BenchmarkTrend.Build("#1", 1, Map.of("agent-1", REPORT)),
                new BenchmarkTrend.Build("#2", 2, both)));
        assertThat(series).extracting(BenchmarkTrend.Series::name)
                .containsExactly("default on agent-1", "idle on agent-1", "default on agent-2", "idle on agent-2");
        assertThat(series.get(3).values()).as("0 where the build did not benchmark the node").containsExactly(0, 92);
    }
}
