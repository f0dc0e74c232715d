package dev.schedpolicy.engine.agent;

import dev.schedpolicy.engine.bench.BenchOptions;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Issue 31 item 14: the administrator's caps on one benchmark (load, repetitions, length), refused in one line. */
class BenchmarkCapsTest {
    private static final String WHERE = "Manage Jenkins » System » Sched Policy";

    private static BenchOptions options(final Boolean quick, final String loads, final Integer repetitions) {
        return AgentBenchmark.options(new AgentBenchmark.Request("seed-cpu-looper", quick, "default,idle", loads, repetitions, null, null,
                null), AgentLimits.DEFAULT, new BenchOptions.Cancellation());
    }

    @Test
    void shouldRefuseALoadAboveTheCapSayingTheCapAndWhereItIsSet() {
        BenchmarkCaps caps = new BenchmarkCaps(2, 50, 60, WHERE);
        assertThatThrownBy(() -> caps.check(options(true, "1,64", 1))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("schedBenchmark asks for load 64 (64 background copies per CPU), above the administrator's cap (highest"
                        + " load: 2, set in Manage Jenkins » System » Sched Policy): use loads up to 2");
        caps.check(options(true, "1,2", 1));
    }

    @Test
    void shouldRefuseRepetitionsAboveTheCap() {
        BenchmarkCaps caps = new BenchmarkCaps(8, 3, 60, WHERE);
        assertThatThrownBy(() -> caps.check(options(true, "1", 100))).hasMessageStartingWith("schedBenchmark asks for 100 repetitions,"
                + " above the administrator's cap (most repetitions: 3, set in " + WHERE + "): use repetitions up to 3");
        caps.check(options(true, "1", 3));
    }

    @Test
    void shouldRefuseABenchmarkEstimatedLongerThanTheCap() {
        BenchOptions full = options(false, "1,2,4,8", 50);
        assertThat(full.estimatedSeconds()).as("50 repetitions of 9 cells of 2 s").isGreaterThan(60 * 60);
        assertThatThrownBy(() -> new BenchmarkCaps(8, 50, 60, WHERE).check(full)).hasMessageContaining("schedBenchmark asks for about ")
                .hasMessageContaining("minutes (estimated from its 50 repetitions, 2 policies and 4 loads), above the administrator's"
                        + " cap (longest run: 60, set in " + WHERE + ")").hasMessageNotContaining("\n");
        BenchmarkCaps.defaults(WHERE).check(options(true, null, null));
        BenchmarkCaps.defaults(WHERE).check(options(false, null, null));
    }

    @Test
    void shouldLetEveryPresetOfTheBuiltInScenariosPassTheDefaults() {
        for (String scenario : dev.schedpolicy.engine.scenario.ScenarioCatalog.BUILT_IN) {
            for (boolean quick : new boolean[] {true, false}) {
                BenchOptions o = AgentBenchmark.options(new AgentBenchmark.Request(scenario, quick, null, null, null, null, null, null),
                        AgentLimits.DEFAULT, new BenchOptions.Cancellation());
                BenchmarkCaps.defaults(WHERE).check(o);
            }
        }
    }

    @Test
    void shouldCheckItsOwnRangeAndReadStoredSettingsLeniently() {
        assertThatThrownBy(() -> new BenchmarkCaps(0, 50, 60, WHERE)).hasMessage("the benchmark's highest load must be 1..64, not 0");
        assertThatThrownBy(() -> new BenchmarkCaps(8, 101, 60, WHERE)).hasMessage("the benchmark's most repetitions must be 1..100, not 101");
        assertThat(BenchmarkCaps.lenient(0, -1, 99999, WHERE)).isEqualTo(new BenchmarkCaps(8, 50, 1440, WHERE));
    }
}
