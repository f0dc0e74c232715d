package dev.schedpolicy.engine.bench;

import dev.schedpolicy.engine.cgroup.CgroupSystem;
import dev.schedpolicy.engine.container.TestDocker;
import dev.schedpolicy.engine.report.BenchReport;
import dev.schedpolicy.engine.scenario.ScenarioCatalog;
import dev.schedpolicy.engine.scenario.Topology;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The container topology for real: the seed looper's background copies run in containers of the test image (the
 * host's JDK mounted in), the victim on the host. Per-task nice19 cannot act there and its row says so; cpu-idle puts
 * the copies under the idle parent; the containers are gone afterwards.
 */
@EnabledOnOs(OS.LINUX)
class ContainerTopologyITest {
    @Test
    void shouldRunTheBackgroundInContainersAndSkipPerTaskPoliciesThere() throws Exception {
        try (TestDocker docker = TestDocker.connect()) {
            Path idle = docker.parent("schedpolicy-test-idle", true);
            String idlePath = CgroupSystem.detect().cpuPathOf(idle);
            BenchReport r = Benchmark.run(BenchOptions.builder(new ScenarioCatalog(label -> { }).load("seed-cpu-looper"))
                    .policies(List.of("default", "nice19", "cpu-idle")).loads(List.of(1.0)).repetitions(1).durationMs(300).seed(3)
                    .topologies(List.of(Topology.CONTAINER)).cgroupParent(idle).containerImage(TestDocker.IMAGE).build(),
                    BenchListener.NONE).report();

            assertThat(r.partial()).as(r.partialReason()).isFalse();
            assertThat(r.topologies()).containsExactly("container");
            BenchReport.Cell plain = r.cell("container", "default", 1).orElseThrow();
            int ncpu = Runtime.getRuntime().availableProcessors();
            assertThat(plain.applied()).contains(ncpu + " processes: own container ").doesNotContain("idle through");
            assertThat(plain.backgroundRate().mean()).as("the copies' work, read from the containers' main processes").isPositive();
            BenchReport.Cell idleCell = r.cell("container", "cpu-idle", 1).orElseThrow();
            assertThat(idleCell.applied()).contains("idle through " + idlePath);
            assertThat(r.cell("container", "nice19", 1)).isEmpty();
            assertThat(r.warnings()).anySatisfy(w -> assertThat(w).contains("'nice19' cannot act in topology container")
                    .contains("use cpuWeight"));
            // no kept % is compared here: one 300 ms repetition on a shared machine says nothing about protection;
            // ContainerProtectionITest measures that against the containers' own CPU time
            assertThat(docker.ok("docker", "ps", "-aq", "--filter", "label=" + ContainerCopies.LABEL)).isEmpty();
        }
    }
}
