package dev.schedpolicy.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class BenchCommandTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(final String... args) {
        CommandLine cl = new CommandLine(new BenchCommand());
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        return cl.execute(args);
    }

    @Test
    void shouldListTheBuiltInScenarios() {
        assertThat(run("--list")).isZero();
        assertThat(out.toString()).contains("seed-cpu-looper", "seed-memory-looper", "periodic-latency", "nice-sweep",
                "cgroup-bandwidth", "threads-vs-cpus", "compile-vs-test");
    }

    @Test
    void shouldRejectAnUnknownScenarioWithExitCode2() {
        assertThat(run("--scenario", "no-such-thing")).isEqualTo(2);
        assertThat(err.toString()).contains("unknown scenario 'no-such-thing'", "seed-cpu-looper");
    }

    @Test
    void shouldReportScenarioFileErrorsWithLineAndColumn(@TempDir final Path dir) throws Exception {
        Path f = Files.writeString(dir.resolve("bad.scenario"), "name = bad\n[victim]\nworkload = cpu-victim\nworkers = many\n");
        assertThat(run("--scenario", f.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("bad.scenario:4:11: 'workers' must be a whole number");
    }

    @Test
    void shouldRunATinyBenchmarkPrintTheTableAndSayWhereTheReportIs(@TempDir final Path dir) throws Exception {
        int rc = run("--scenario", "seed-cpu-looper", "--policies", "default", "--loads", "0,1", "--repetitions", "1",
                "--duration", "300", "--seed", "7", "--out", dir.toString());
        assertThat(rc).as(err.toString()).isZero();
        assertThat(out.toString()).contains("[1/", "ETA", "policy \\ load", "default", "Report: " + dir.resolve("report.json"));
        assertThat(dir.resolve("report.json")).exists();
        assertThat(dir.resolve("report.html")).exists();
    }

    @Test
    void shouldSavePartialResultsAndExitNonZeroWhenTheVictimFails(@TempDir final Path dir) {
        int rc = run("--scenario", "compile-vs-test", "--policies", "default", "--loads", "1", "--repetitions", "1",
                "--victim", "exit 5", "--out", dir.toString());
        assertThat(rc).isEqualTo(BenchCommand.EXIT_PARTIAL);
        assertThat(err.toString()).contains("exit code 5", "partial");
        assertThat(out.toString()).contains("PARTIAL RESULTS")
                .contains("Scenario compile-vs-test: victim 'exit 5' vs background");
        assertThat(dir.resolve("report.json")).exists();
    }
}
