package dev.schedpolicy.engine.fleet;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class WaitSharesTest {
    @Test
    void shouldWeighLaunchesByRunnableTimeAndLeaveLoweredAndUnmeasuredOnesOut() {
        Map<String, WaitShares.AgentShare> shares = WaitShares.ofUnlowered(List.of(
                new WaitShares.Launch("a", false, 1_000, 1_000),     // 50% over 2000 ns
                new WaitShares.Launch("a", false, 0, 8_000),         // 0% over 8000 ns
                new WaitShares.Launch("a", true, 9_000, 1_000),      // lowered: meant to wait
                new WaitShares.Launch("b", false, -1, 5_000)));      // not measured
        assertThat(shares).containsOnlyKeys("a");
        assertThat(shares.get("a").share()).isCloseTo(0.1, within(1e-9));
        assertThat(shares.get("a").text()).isEqualTo("10.0% over 2 launches");
    }

    @Test
    void shouldCombineABuildsLaunchesWhateverTheirPolicy() {
        assertThat(WaitShares.combined(List.of(new WaitShares.Launch("x", true, 3, 1), new WaitShares.Launch("y", false, 1, 3))))
                .hasValueSatisfying(v -> assertThat(v).isCloseTo(0.5, within(1e-9)));
        assertThat(WaitShares.combined(List.of())).isEmpty();
    }
}
