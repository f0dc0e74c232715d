package dev.schedpolicy.engine.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedpolicy.engine.report.BenchReport;
import dev.schedpolicy.engine.report.ReportJson;
import dev.schedpolicy.engine.scenario.Scenario;
import dev.schedpolicy.engine.scenario.ScenarioCatalog;
import dev.schedpolicy.engine.scenario.Topology;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/** Runs tiny matrices for real: separate workload JVMs, /proc accounting, report files. Seconds, not minutes. */
@EnabledOnOs(OS.LINUX)
class BenchmarkITest {
    private static final List<Topology> SAME_AGENT = List.of(Topology.SAME_AGENT);

    private static Scenario scenario(final String name) {
        return new ScenarioCatalog(label -> { }).load(name);
    }

    @Test
    void shouldMeasureATinyCpuMatrixAndWriteBothReports(@TempDir final Path out) throws Exception {
        List<String> lines = new ArrayList<>();
        BenchResult result = Benchmark.run(BenchOptions.builder(scenario("seed-cpu-looper")).topologies(SAME_AGENT).policies(List.of("default"))
                .loads(List.of(0.0, 1.0)).repetitions(2).durationMs(300).seed(1).outDir(out).build(),
                new BenchListener() {
                    @Override
                    public void progress(final Progress p) {
                        lines.add(p.line());
                    }
                });
        BenchReport r = result.report();
        assertThat(r.partial()).as(r.partialReason()).isFalse();
        assertThat(r.cells()).hasSize(2);
        BenchReport.Cell loaded = r.cell("default", 1).orElseThrow();
        assertThat(loaded.keptPct().n()).isEqualTo(2);
        // one victim worker against ncpu default-priority loopers gets roughly 1/(ncpu+1) x ncpu of a CPU
        assertThat(loaded.keptPct().mean()).isBetween(5.0, 99.0);
        assertThat(loaded.backgroundCopies()).isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(loaded.runQueueSharePct().mean()).isGreaterThan(3.0);
        assertThat(loaded.totalCpuPct().mean()).isGreaterThan(20.0); // others share this machine
        assertThat(r.cell("default", 0).orElseThrow().fromBaseline()).isTrue();
        assertThat(lines).isNotEmpty().allMatch(l -> l.matches("\\[\\d+/\\d+\\] .* \\| \\d+:\\d\\d elapsed, ETA \\d+:\\d\\d"));
        assertThat(ReportJson.read(out.resolve("report.json"))).isEqualTo(r);
        assertThat(Files.readString(out.resolve("report.html"))).contains("<svg", "seed-cpu-looper");
        assertNoWorkloadLeft();
    }

    @Test
    void shouldReportLatencyForPeriodicVictims() {
        BenchReport r = Benchmark.run(BenchOptions.builder(scenario("periodic-latency")).policies(List.of("default"))
                .loads(List.of(1.0)).repetitions(1).durationMs(500).starter(new PlainStarter()).build(),
                BenchListener.NONE).report();
        assertThat(r.partial()).as(r.partialReason()).isFalse();
        BenchReport.Latency l = r.cell("default", 1).orElseThrow().latencyUs();
        assertThat(l).isNotNull();
        assertThat(l.max()).isGreaterThanOrEqualTo(l.p99()).isGreaterThan(0);
    }

    @Test
    void shouldMarkResultsPartialWhenTheVictimCommandFails(@TempDir final Path out) throws Exception {
        BenchResult result = Benchmark.run(BenchOptions.builder(scenario("compile-vs-test")).policies(List.of("default"))
                .loads(List.of(1.0)).repetitions(1).victimCommand("echo broken >&2; exit 3").outDir(out).build(),
                BenchListener.NONE);
        assertThat(result.report().partial()).isTrue();
        assertThat(result.report().partialReason()).contains("exit code 3", "broken");
        assertThat(ReportJson.read(out.resolve("report.json")).partial()).isTrue();
        assertNoWorkloadLeft();
    }

    @Test
    void shouldTimeTheVictimCommandAloneNotItsStart() throws Exception {
        // a starter that takes 0.8 s, as a slow policy read-back or a cgroup move under load would
        ProcessStarter slow = starter((plain, builder, policy) -> {
            ProcessStarter.Started st = plain.start(builder, policy);
            Thread.sleep(800);
            return st;
        });
        BenchReport r = Benchmark.run(BenchOptions.builder(scenario("compile-vs-test")).topologies(SAME_AGENT).policies(List.of("default"))
                .loads(List.of(1.0)).repetitions(2).victimCommand("sleep 0.3").backgroundCommand("sleep 60").starter(slow).build(),
                BenchListener.NONE).report();
        assertThat(r.partial()).as(r.partialReason()).isFalse();
        // the window opens once the victim's shell is in place and closes when the command ends: 0.3 s, not the 0.8 s start
        assertThat(r.baseline().victimWorkMs().samples()).allSatisfy(ms -> assertThat(ms).isBetween(300.0, 700.0));
        assertNoWorkloadLeft();
    }

    @Test
    void shouldKillEverythingAndKeepPartialResultsWhenCancelled() throws Exception {
        BenchOptions.Cancellation cancel = new BenchOptions.Cancellation();
        BenchResult result = Benchmark.run(BenchOptions.builder(scenario("seed-cpu-looper")).topologies(SAME_AGENT).policies(List.of("default"))
                .loads(List.of(1.0)).repetitions(5).durationMs(400).cancellation(cancel).build(), new BenchListener() {
                    @Override
                    public void progress(final Progress p) {
                        if (p.done() == 4) {
                            cancel.cancel("Ctrl-C");
                        }
                    }
                });
        assertThat(result.report().partial()).isTrue();
        assertThat(result.report().partialReason()).contains("Ctrl-C");
        assertThat(result.report().run().cellsDone()).isLessThan(result.report().run().cellsPlanned());
        assertNoWorkloadLeft();
    }

    @Test
    void shouldSkipAPolicyTheMachineCannotApplyAndSayWhy() throws Exception {
        ProcessStarter picky = starter((plain, builder, policy) -> {
            if (policy.label().equals("quota50")) {
                throw new IllegalStateException("cgroup controls are not available");
            }
            return plain.start(builder, BenchPolicy.DEFAULT);
        });
        BenchReport r = Benchmark.run(BenchOptions.builder(scenario("seed-cpu-looper")).topologies(SAME_AGENT).policies(List.of("default", "quota50"))
                .loads(List.of(1.0)).repetitions(2).durationMs(200).starter(picky).build(), BenchListener.NONE).report();
        assertThat(r.partial()).as(r.partialReason()).isFalse();
        assertThat(r.cell("default", 1)).isPresent();
        assertThat(r.cell("quota50", 1)).isEmpty();
        assertThat(r.warnings()).anyMatch(w -> w.contains("'quota50' cannot be applied here") && w.contains("cgroup"));
        assertNoWorkloadLeft();
    }

    /** How a test starter starts one process, given a plain starter to delegate to. */
    private interface StartHook {
        ProcessStarter.Started start(PlainStarter plain, ProcessBuilder builder, BenchPolicy policy) throws Exception;
    }

    /** A starter that accepts every policy label and starts as the hook says. */
    private static ProcessStarter starter(final StartHook hook) {
        PlainStarter plain = new PlainStarter();
        return new ProcessStarter() {
            @Override
            public Started start(final ProcessBuilder builder, final BenchPolicy policy) throws java.io.IOException {
                try {
                    return hook.start(plain, builder, policy);
                } catch (java.io.IOException | RuntimeException e) {
                    throw e;
                } catch (Exception e) {
                    throw new java.io.IOException(e);
                }
            }

            @Override
            public void validate(final String label) {
            }
        };
    }

    static void assertNoWorkloadLeft() throws InterruptedException {
        Thread.sleep(200);
        assertThat(ProcessHandle.current().descendants()
                .filter(p -> p.info().commandLine().orElse("").contains("dev.schedpolicy.engine.bench.workload")))
                .isEmpty();
    }
}
