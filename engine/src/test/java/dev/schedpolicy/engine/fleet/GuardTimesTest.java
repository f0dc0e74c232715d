package dev.schedpolicy.engine.fleet;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The fleet view's guard column: acted and yielded time added up per agent. */
class GuardTimesTest {
    @Test
    void shouldAddUpActedAndYieldedTimePerAgent() {
        var times = GuardTimes.perAgent(List.of(new GuardTimes.Entry("a", 20_000, 0), new GuardTimes.Entry("b", 0, 500),
                new GuardTimes.Entry("a", 1_500, 0), new GuardTimes.Entry("a", 0, 41_000)));
        assertThat(times.keySet()).containsExactly("a", "b");
        assertThat(times.get("a")).isEqualTo(new GuardTimes(21_500, 41_000));
        assertThat(times.get("a").text()).isEqualTo("acted 21.5 s, yielded 41.0 s");
        assertThat(times.get("b").text()).isEqualTo("acted 0.0 s, yielded 0.5 s");
    }
}
