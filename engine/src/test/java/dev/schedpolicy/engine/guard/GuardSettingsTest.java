package dev.schedpolicy.engine.guard;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GuardSettingsTest {
    @Test
    void shouldRejectAThresholdOutsideZeroToOneHundredPercentInWords() {
        assertThatThrownBy(() -> GuardSettings.defaults().withWaitThreshold(0))
                .hasMessage("guard wait threshold must be above 0% and below 100% of the step's runnable time, got 0%");
        assertThatThrownBy(() -> GuardSettings.defaults().withWaitThreshold(1.0)).hasMessageContaining("got 100%");
    }

    @Test
    void shouldRejectPeriodsTheLoopCannotKeep() {
        GuardSettings d = GuardSettings.defaults();
        assertThatThrownBy(() -> new GuardSettings(Duration.ofMillis(1), 0.1, Duration.ZERO, d.quiet(), 0.1,
                d.scanPeriod(), 0.05)).hasMessage("guard period must be 10..1000 ms, got 1 ms");
        assertThatThrownBy(() -> new GuardSettings(d.period(), 0.1, d.minRunnable(), Duration.ofMillis(10), 0.1,
                d.scanPeriod(), 0.05)).hasMessage("guard quiet time must be at least one period (50 ms)");
    }

    @Test
    void shouldDescribeWhatItDidInShortLines() {
        GuardReport r = new GuardReport(10_000, 8_000, 800, 300, 7_000, 2, 42,
                List.of(new GuardReport.LoweredTime(new Competitor(12, "cc1plus"), "moved into the cpu.idle group /g", 7_000, 2)),
                List.of(), true);
        assertThat(r.describe()).containsExactly(
                "waited 0.8 s for a CPU in 10.0 s (10.0% of its runnable time); 0.3 s of it while nothing was lowered",
                "lowered cc1plus 12 for 7.0 s, 2 times (moved into the cpu.idle group /g); first action 42 ms after the"
                        + " wait crossed the threshold",
                "everything it lowered is back as it was");
    }
}
