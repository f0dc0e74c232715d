package dev.schedpolicy.engine.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.schedpolicy.engine.cgroup.CgroupSystem;
import dev.schedpolicy.engine.report.BenchReport;
import dev.schedpolicy.engine.report.TextTable;
import dev.schedpolicy.engine.scenario.Scenario;
import dev.schedpolicy.engine.scenario.ScenarioCatalog;
import dev.schedpolicy.engine.scenario.ScenarioParser;
import dev.schedpolicy.engine.scenario.Topology;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/** The topology axis and the real workloads, run for real in tiny matrices (seconds each). */
@EnabledOnOs(OS.LINUX)
class TopologyBenchmarkITest {
    private static Scenario scenario(final String name) {
        return new ScenarioCatalog(label -> { }).load(name);
    }

    @Test
    void shouldMeasureEveryTopologyAndGiveAVerdictForEach() throws Exception {
        CgroupSystem cgroups = CgroupSystem.detect();
        assumeThat(cgroups.cpuHierarchy().isPresent() && cgroups.checkParent(cgroups.ownCpuCgroupDir()).usable())
                .as("a writable cpu cgroup for outside-agent (CI runs as root)").isTrue();
        assumeThat(Files.isExecutable(Placement.SETSID)).as("util-linux setsid for other-session").isTrue();
        List<String> groupsBefore = groups(cgroups);
        BenchReport r = Benchmark.run(BenchOptions.builder(scenario("seed-cpu-looper")).policies(List.of("default", "nice19"))
                .loads(List.of(1.0)).repetitions(1).durationMs(200).seed(3)
                .topologies(List.of(Topology.SAME_AGENT, Topology.OTHER_SESSION, Topology.OUTSIDE_AGENT)).build(),
                BenchListener.NONE).report();
        assertThat(r.partial()).as(r.partialReason()).isFalse();
        assertThat(r.schemaVersion()).isEqualTo(2);
        // in the order of the questions: the agent's own executors, then its neighbours
        assertThat(r.topologies()).containsExactly("same-agent", "outside-agent", "other-session");
        assertThat(r.cells()).extracting(BenchReport.Cell::topology)
                .containsExactlyInAnyOrder("same-agent", "same-agent", "other-session", "other-session", "outside-agent",
                        "outside-agent");
        int ncpu = Runtime.getRuntime().availableProcessors();
        BenchReport.Cell session = r.cell("other-session", "nice19", 1).orElseThrow();
        assertThat(session.applied()).contains(ncpu + " processes", "nice 19", "in own session");
        BenchReport.Cell cgroup = r.cell("outside-agent", "default", 1).orElseThrow();
        assertThat(cgroup.applied()).contains("in own cgroup /");
        assertThat(r.verdicts()).extracting(BenchReport.Verdict::topology)
                .containsExactly("same-agent", "outside-agent", "other-session");
        // against ncpu default-priority hogs nobody keeps 99%: default fails everywhere
        assertThat(r.verdicts()).allSatisfy(v -> assertThat(v.fail()).extracting(BenchReport.Shortfall::policy)
                .contains("default"));
        assertThat(TextTable.render(r).lines().findFirst().orElseThrow()).startsWith("Verdict");
        assertThat(groups(cgroups)).as("the run's cgroups are removed").isSubsetOf(groupsBefore);
        BenchmarkITest.assertNoWorkloadLeft();
    }

    @Test
    void shouldGuardTheVictimInTheGuardRowAndPutTheBackgroundBack() throws Exception {
        CgroupSystem cgroups = CgroupSystem.detect();
        assumeThat(cgroups.cpuHierarchy().isPresent() && Files.isWritable(cgroups.cpuRoot().resolve("cgroup.procs")))
                .as("root on a writable cpu cgroup hierarchy, where the guard lowers into a cpu.idle group (CI runs as root)")
                .isTrue();
        assumeThat(Files.isExecutable(Placement.SETSID)).as("util-linux setsid for other-session").isTrue();
        List<String> topBefore = topGroups(cgroups);
        BenchReport r = Benchmark.run(BenchOptions.builder(scenario("seed-cpu-looper")).policies(List.of("default", "guard"))
                .loads(List.of(1.0)).repetitions(1).durationMs(400).seed(3)
                .topologies(List.of(Topology.SAME_AGENT, Topology.OTHER_SESSION)).build(), BenchListener.NONE).report();
        assertThat(r.partial()).as(r.partialReason()).isFalse();
        for (String topology : List.of("same-agent", "other-session")) {
            // the background runs unlowered; against ncpu hogs the victim waits, so the guard acts and then puts back
            BenchReport.Cell guarded = r.cell(topology, "guard", 1).orElseThrow();
            assertThat(guarded.applied()).as(topology).contains("class normal, nice 0", "; guard: waited ", "; lowered ",
                    "everything it lowered is back as it was");
            assertThat(r.cell(topology, "default", 1).orElseThrow().applied()).as(topology).doesNotContain("guard:");
        }
        assertThat(topGroups(cgroups)).as("the guard's idle groups are removed").isSubsetOf(topBefore);
        BenchmarkITest.assertNoWorkloadLeft();
    }

    /** This JVM's groups at the top of the cpu hierarchy, where a guard makes its idle group. */
    private static List<String> topGroups(final CgroupSystem cgroups) throws java.io.IOException {
        String me = "schedpolicy-" + ProcessHandle.current().pid() + "-";
        try (var groups = Files.list(cgroups.cpuRoot())) {
            return groups.map(g -> g.getFileName().toString()).filter(n -> n.startsWith(me)).toList();
        }
    }

    /** Our groups under the benchmark's own cpu cgroup (an earlier test in this JVM may have left one behind). */
    private static List<String> groups(final CgroupSystem cgroups) throws java.io.IOException {
        String me = "schedpolicy-" + ProcessHandle.current().pid() + "-";
        try (var groups = Files.list(cgroups.ownCpuCgroupDir())) {
            return groups.map(g -> g.getFileName().toString()).filter(n -> n.startsWith(me)).toList();
        }
    }

    @Test
    void shouldCompileWithJavacAsBackgroundAgainstATestJobVictim() throws Exception {
        BenchReport r = Benchmark.run(BenchOptions.builder(scenario("javac-vs-test-job")).policies(List.of("default"))
                .loads(List.of(0.5)).repetitions(1).durationMs(400).starter(new PlainStarter())
                .topologies(List.of(Topology.SAME_AGENT)).build(), BenchListener.NONE).report();
        assertThat(r.partial()).as(r.partialReason()).isFalse();
        BenchReport.Cell c = r.cell("same-agent", "default", 0.5).orElseThrow();
        assertThat(c.backgroundRate().mean()).as("classes compiled per second").isPositive();
        assertThat(c.keptPct().mean()).isPositive();
        assertThat(r.scenario().victim()).contains("test-job", "forks=20");
        BenchmarkITest.assertNoWorkloadLeft();
    }

    @Test
    void shouldTakeLatencyPercentilesFromAllWakeupsOfACell(@org.junit.jupiter.api.io.TempDir final Path dir) {
        BenchReport r = latencyRun("periodic", dir);
        BenchReport.Latency l = r.cell("same-agent", "default", 1).orElseThrow().latencyUs();
        assertThat(l.wakeups()).isEqualTo(400); // 2 repetitions x 200 wakeups, merged into one histogram
        assertThat(l.p50()).isLessThanOrEqualTo(l.p99());
        assertThat(l.p99()).isLessThanOrEqualTo(l.p999());
        assertThat(l.p999()).isLessThanOrEqualTo(l.max());
    }

    @Test
    void shouldCrossCheckWithCyclictestAsTheVictim(@org.junit.jupiter.api.io.TempDir final Path dir) {
        assumeThat(Path.of("/usr/bin/cyclictest")).as("rt-tests' cyclictest, installed by .ci/run").isExecutable();
        BenchReport r = latencyRun("cyclictest", dir);
        BenchReport.Latency l = r.cell("same-agent", "default", 1).orElseThrow().latencyUs();
        assertThat(l.wakeups()).isBetween(400L, 401L); // one more when cyclictest's maximum overflowed the buckets
        assertThat(l.p50()).isPositive().isLessThanOrEqualTo(l.max());
    }

    private static BenchReport latencyRun(final String victim, final Path dir) {
        String text = "name = lat\nexpect = x\n[victim]\nworkload = " + victim + "\nperiod-ms = 1\nwakeups = 400\n"
                + "[background]\nworkload = cpu-looper\nper-load = 1\n[matrix]\npolicies = default\nloads = 1\n"
                + "repetitions = 2\nduration = 200ms\n";
        Scenario s = new ScenarioParser(label -> { }).parse(dir.resolve("lat.scenario").toString(), text);
        BenchReport r = Benchmark.run(BenchOptions.builder(s).starter(new PlainStarter()).build(), BenchListener.NONE)
                .report();
        assertThat(r.partial()).as(r.partialReason()).isFalse();
        return r;
    }
}
