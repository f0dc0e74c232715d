package dev.schedpolicy.engine.agent;

import dev.schedpolicy.engine.guard.Competitor;
import dev.schedpolicy.engine.guard.GuardReport;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What a lowered build is told it yielded: per guarding build, named only where its reader may read that build's job. */
class YieldLedgerTest {
    @Test
    void shouldAddUpPerGuardingBuildAndNameOnlyWhatTheReaderMayRead() {
        YieldLedger ledger = new YieldLedger();
        ledger.add("team-a/tests", "team-a/tests #88", 30_000, 2);
        ledger.add("team-a/tests", "team-a/tests #88", 11_000, 1);
        ledger.add("secret", "secret #4", 2_500, 1);

        assertThat(ledger.millis()).isEqualTo(43_500);
        assertThat(ledger.times()).isEqualTo(4);
        assertThat(ledger.line(j -> true)).isEqualTo(
                "yielded for 43.5 s in all (4 times) to guarded steps of team-a/tests #88 (41.0 s), secret #4 (2.5 s)");
        assertThat(ledger.line("team-a/tests"::equals)).isEqualTo(
                "yielded for 43.5 s in all (4 times) to guarded steps of team-a/tests #88 (41.0 s), 1 other build (2.5 s)");
        assertThat(ledger.line(j -> false)).doesNotContain("tests").doesNotContain("secret")
                .endsWith("to guarded steps of 2 other builds (43.5 s)");
    }

    @Test
    void shouldKeepABoundedNumberOfGuardingBuildsAndAddUpTheRest() {
        YieldLedger ledger = new YieldLedger();
        for (int i = 0; i < 500; i++) {
            ledger.add("tests", "tests #" + i, 1_000, 1);
        }
        assertThat(ledger.names(j -> true)).hasSize(YieldLedger.MAX_GUARDS + 1).last()
                .isEqualTo((500 - YieldLedger.MAX_GUARDS) + " other builds (" + (500 - YieldLedger.MAX_GUARDS) + ".0 s)");
        assertThat(ledger.millis()).isEqualTo(500_000);
        assertThat(ledger.times()).isEqualTo(500);
        assertThatThrownBy(() -> ledger.add("tests", "tests #1", -1, 1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldTellEachLoweredLaunchItsTimeFromTheGuardsRecord() {
        GuardReport report = new GuardReport(20_000, 18_000, 900, 300, 17_000, 1, 40, List.of(
                new GuardReport.LoweredTime(new Competitor(11, "cc1plus"), "idle group", 4_000, 2),
                new GuardReport.LoweredTime(new Competitor(12, "cc1plus"), "idle group", 3_000, 1),
                new GuardReport.LoweredTime(new Competitor(21, "ld"), "idle group", 500, 1),
                new GuardReport.LoweredTime(new Competitor(99, "stray"), "idle group", 9_000, 1)), List.of(), true);
        GuardRecord record = new GuardRecord("t", report, Map.of(11L, "a", 12L, "a", 21L, "b"), Map.of(), Map.of());

        // the processes of one launch were lowered together: the launch yielded as long as the longest of them
        assertThat(record.yields()).containsExactly(new GuardRecord.LaunchYield("a", 4_000, 2),
                new GuardRecord.LaunchYield("b", 500, 1));
    }
}
