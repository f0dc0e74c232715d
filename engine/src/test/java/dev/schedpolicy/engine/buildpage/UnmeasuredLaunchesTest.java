package dev.schedpolicy.engine.buildpage;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** What the build page says of launches the agents would not measure. */
class UnmeasuredLaunchesTest {
    @Test
    void shouldSayHowManyLaunchesRanInContainers() {
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (int i = 0; i < 3; i++) {
            UnmeasuredLaunches.count(counts, UnmeasuredLaunches.IN_CONTAINER);
        }
        UnmeasuredLaunches.count(counts, "no parked launch 'hs-1' to measure");
        assertThat(UnmeasuredLaunches.lines(counts)).containsExactly(
                "3 launches in containers not measured: their processes are the container runtime's children"
                        + " (docker exec, docker run)",
                "1 launch not measured: no parked launch 'hs-1' to measure");
    }

    @Test
    void shouldSayContainerStartsApartFromTheExecsThatAreMeasured() {
        Map<String, Integer> counts = new LinkedHashMap<>();
        UnmeasuredLaunches.count(counts, UnmeasuredLaunches.CONTAINER_START);
        assertThat(UnmeasuredLaunches.lines(counts)).containsExactly("1 container start not measured (docker run, create):"
                + " the client is not the work; the steps that exec into the container are measured apart");
    }

    @Test
    void shouldKeepABoundedNumberOfReasonsWhateverTheAgentsSay() {
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (int i = 0; i < 1000; i++) {
            UnmeasuredLaunches.count(counts, "reason " + i);
        }
        assertThat(counts).hasSize(UnmeasuredLaunches.MAX_REASONS);
        assertThat(counts.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(1000);
        assertThat(UnmeasuredLaunches.lines(counts)).last().isEqualTo("991 launches not measured: other reasons");
    }

    @Test
    void shouldAddTheCountsOfALaterCollection() {
        Map<String, Integer> before = Map.of(UnmeasuredLaunches.IN_CONTAINER, 2);
        assertThat(UnmeasuredLaunches.plus(before, Map.of(UnmeasuredLaunches.IN_CONTAINER, 5)))
                .containsEntry(UnmeasuredLaunches.IN_CONTAINER, 7);
    }
}
