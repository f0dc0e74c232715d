package dev.schedpolicy.engine.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedpolicy.engine.probe.Recommendation;
import dev.schedpolicy.engine.scenario.ScenarioCatalog;
import dev.schedpolicy.engine.scenario.Topology;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class RecommendationCheckTest {
    @Test
    void shouldCheckTheRecommendationBesideDefaultAndIdleForTheAgentsExecutorsAndItsNeighbours() {
        BenchOptions o = RecommendationCheck.options(new ScenarioCatalog(l -> { }).load("seed-cpu-looper"),
                new Recommendation("cpu-idle", "/sys/fs/cgroup/cpu/schedpolicy.idle", "because", null)).build();
        assertThat(o.matrix().policies()).containsExactly("default", "cpu-idle", "idle");
        assertThat(o.matrix().topologies()).containsExactly(Topology.SAME_AGENT, Topology.OUTSIDE_AGENT);
        assertThat(o.matrix().cells()).isEqualTo(3 * 1 * 2 * 2);
        assertThat(o.cgroupParent()).contains(Path.of("/sys/fs/cgroup/cpu/schedpolicy.idle"));
        BenchOptions idle = RecommendationCheck.options(new ScenarioCatalog(l -> { }).load("seed-cpu-looper"),
                new Recommendation("idle", null, "because", null)).build();
        assertThat(idle.matrix().policies()).containsExactly("default", "idle");
        assertThat(idle.cgroupParent()).isEmpty();
    }
}
