package dev.schedpolicy.engine.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.schedpolicy.engine.cgroup.CgroupSystem;
import dev.schedpolicy.engine.cgroup.IdleParent;
import dev.schedpolicy.engine.report.BenchReport;
import dev.schedpolicy.engine.report.TextTable;
import dev.schedpolicy.engine.scenario.ScenarioCatalog;
import dev.schedpolicy.engine.scenario.Topology;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * The neighbours-outside-the-agent answer on the real kernel (issue 18 item 1): bench puts cgroup policies under
 * the machine-wide idle parent when it exists, and says that nothing can protect there until setup is run when it
 * does not. A test idle parent stands in for the real one, which this test never touches.
 */
@EnabledOnOs(OS.LINUX)
class IdleParentBenchITest {
    private IdleParent parent;

    @BeforeEach
    void setUp() {
        CgroupSystem system = CgroupSystem.detect();
        assumeThat(system.cpuHierarchy()).as("a cpu cgroup controller (CI: the v1 cpu hierarchy)").isPresent();
        Path top = system.cpuHierarchy().orElseThrow().dirOf("/");
        assumeThat(Files.isWritable(top)).as("root on the cpu hierarchy (CI runs as root)").isTrue();
        parent = IdleParent.at(system, top.resolve("schedpolicy-test-" + ProcessHandle.current().pid() + ".idle"));
    }

    @AfterEach
    void cleanUp() {
        if (parent != null && Files.exists(parent.path())) {
            parent.remove(); // refused, failing the test, if the run left a group or a process behind
        }
    }

    private BenchReport run() throws InterruptedException {
        BenchReport r = Benchmark.run(BenchOptions.builder(new ScenarioCatalog(l -> { }).load("seed-cpu-looper"))
                .policies(List.of("cpu-idle")).loads(List.of(1.0)).repetitions(1).durationMs(200).seed(5)
                .topologies(List.of(Topology.OUTSIDE_AGENT)).idleParent(parent.path()).build(), BenchListener.NONE)
                .report();
        assertThat(r.partial()).as(r.partialReason()).isFalse();
        BenchmarkITest.assertNoWorkloadLeft();
        return r;
    }

    @Test
    void shouldPutCgroupPoliciesUnderTheIdleParentWhenItIsSetUp() throws Exception {
        parent.setUp(Optional.empty());

        BenchReport r = run();

        assertThat(r.run().idleParent()).isTrue();
        assertThat(r.run().cgroupParent()).isEqualTo(parent.path().toString());
        BenchReport.Cell c = r.cell("outside-agent", "cpu-idle", 1).orElseThrow();
        // what the kernel reported for the background copies: their cpu cgroup lies under the idle parent
        assertThat(c.applied()).contains("/" + parent.path().getFileName() + "/");
        BenchReport.Verdict v = r.verdicts().get(0);
        assertThat(v.note()).isEqualTo("cgroup policies made their groups under the machine-wide idle parent "
                + parent.path());
        assertThat(v.claims()).contains("cpu-idle >= 95 with idle parent");
    }

    @Test
    void shouldSayNothingCanProtectOutsideTheAgentUntilSetupWhenThereIsNoIdleParent() throws Exception {
        BenchReport r = run(); // the test idle parent was never made

        assertThat(r.run().idleParent()).isFalse();
        assertThat(r.run().cgroupParent()).isNull();
        BenchReport.Verdict v = r.verdicts().get(0);
        assertThat(v.note()).startsWith("nothing can protect these neighbours until an administrator runs"
                + " 'sudo schedpolicy setup --user <agent user>'").contains(parent.path() + ": not set up");
        assertThat(v.claims()).containsExactly("default < 99", "nice19 < 99", "idle < 99",
                "cpu-idle < 99 without idle parent");
        assertThat(TextTable.verdicts(r)).contains("1. Neighbours outside the agent (outside-agent: ", v.note(),
                "expected here: nice19 and idle do not reach another cgroup");
    }
}
