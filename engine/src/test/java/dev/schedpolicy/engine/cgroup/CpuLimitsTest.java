package dev.schedpolicy.engine.cgroup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class CpuLimitsTest {
    @Test
    void shouldExpressQuotaPercentAsMicrosecondsPerHundredMillisecondPeriod() {
        assertThat(CpuLimits.none().withQuotaPercent(50).quotaUs()).hasValue(50_000);
        assertThat(CpuLimits.none().withQuotaPercent(150).quotaUs()).hasValue(150_000);
        assertThat(CpuLimits.none().quotaUs()).isEmpty();
        assertThat(CpuLimits.PERIOD_US).isEqualTo(100_000);
    }

    @Test
    void shouldRejectQuotaBelowOnePercent() {
        assertThatThrownBy(() -> CpuLimits.none().withQuotaPercent(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 1");
    }

    @Test
    void shouldRejectWeightOutsideOneToTenThousand() {
        assertThatThrownBy(() -> CpuLimits.none().withWeight(0)).hasMessageContaining("1..10000, got 0");
        assertThatThrownBy(() -> CpuLimits.none().withWeight(10_001)).hasMessageContaining("1..10000, got 10001");
        assertThat(CpuLimits.none().withWeight(10_000).weight()).isEqualTo(OptionalInt.of(10_000));
    }
}
