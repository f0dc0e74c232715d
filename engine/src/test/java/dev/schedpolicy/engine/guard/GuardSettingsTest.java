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
                d.scanPeriod(), 0.05, d.fastPeriod(), d.fastFor())).hasMessage("guard period must be 10..1000 ms, got 1 ms");
        assertThatThrownBy(() -> new GuardSettings(d.period(), 0.1, d.minRunnable(), Duration.ofMillis(10), 0.1,
                d.scanPeriod(), 0.05, d.fastPeriod(), d.fastFor()))
                .hasMessage("guard quiet time must be at least one period (50 ms)");
        assertThatThrownBy(() -> new GuardSettings(d.period(), 0.1, d.minRunnable(), d.quiet(), 0.1, d.scanPeriod(), 0.05,
                Duration.ofMillis(100), d.fastFor())).hasMessage("guard fast period must be 5..50 ms (the period), got 100 ms");
    }

    @Test
    void shouldTickFastWhileArmingAndAtThePeriodOnceActingOrArmedLongEnough() {
        GuardSettings d = GuardSettings.defaults();
        long ms = 1_000_000L;
        assertThat(d.periodNanos(0, false)).as("just started or just put back").isEqualTo(10 * ms);
        assertThat(d.periodNanos(499 * ms, false)).isEqualTo(10 * ms);
        assertThat(d.periodNanos(500 * ms, false)).as("armed for the fast time: the step did not wait").isEqualTo(50 * ms);
        assertThat(d.periodNanos(0, true)).as("acting: newly busy competitors and the quiet show at scans").isEqualTo(250 * ms);
    }

    @Test
    void shouldAskAShortPeriodForItsShareOfTheLeastRunnableTime() {
        GuardSettings d = GuardSettings.defaults();
        assertThat(d.minRunnableNanos(10_000_000L)).as("a tenth of 5 ms in a fast period of 10 ms").isEqualTo(1_000_000L);
        assertThat(d.minRunnableNanos(50_000_000L)).isEqualTo(5_000_000L);
        assertThat(d.minRunnableNanos(400_000_000L)).as("never more than the setting").isEqualTo(5_000_000L);
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
