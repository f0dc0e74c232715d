package dev.schedpolicy.cli;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * Bad input to run, probe, bench and scenario files: each gets one clear message that says what is allowed,
 * and its documented exit code (2 usage, 125 policy not applicable, 126/127 command problems), without a
 * stack trace and without running anything. BadInputCatalogTest holds the first run cases; these add the rest.
 */
class BadInputAcrossCommandsTest {
    private static final String MATRIX = "[matrix]\npolicies = default\nloads = 1\n";
    private static final String VICTIM = "name = bad\n[victim]\nworkload = cpu-victim\n";

    @TempDir
    static Path dir;

    private static Path notExecutable;

    @BeforeAll
    static void files() throws IOException {
        notExecutable = Files.writeString(dir.resolve("script.sh"), "#!/bin/sh\necho hi\n");
    }

    /** The machine's online CPUs as the kernel writes them, and a CPU number just past them. */
    private static String[] missingCpu() {
        try {
            String online = Files.readString(Path.of("/sys/devices/system/cpu/online")).trim();
            String[] last = online.split(",");
            String top = last[last.length - 1];
            int highest = Integer.parseInt(top.contains("-") ? top.substring(top.indexOf('-') + 1) : top);
            return new String[] {String.valueOf(Math.max(99, highest + 1)), online};
        } catch (IOException e) {
            int n = Runtime.getRuntime().availableProcessors();
            return new String[] {String.valueOf(Math.max(99, n)), n == 1 ? "0" : "0-" + (n - 1)};
        }
    }

    static Stream<Arguments> run() {
        String[] cpu = missingCpu();
        return Stream.of(
                arguments(List.of("run", "--cpus", cpu[0], "--", "true"), 2,
                        "CPU " + cpu[0] + " does not exist; this machine has CPUs " + cpu[1]),
                arguments(List.of("run", "--cpus", "0-" + cpu[0], "--", "true"), 2, "do not exist; this machine has CPUs " + cpu[1]),
                arguments(List.of("run", "--policy", "idle+cpus=" + cpu[0], "--", "true"), 2, "CPU " + cpu[0] + " does not exist"),
                arguments(List.of("run", "--cpus", "0,,1", "--", "true"), 2, "CPU list '0,,1' is not valid; write CPUs as in taskset -c"),
                arguments(List.of("run", "--cpus", "-1", "--", "true"), 2, "CPU list '-1' is not valid; write CPUs as in taskset -c"),
                arguments(List.of("run", "--cpus", "0-99999", "--", "true"), 2, "ranges go low-high with CPUs 0..8191"),
                arguments(List.of("run", "--cpu-quota", "-5", "--", "true"), 2, "CPU quota must be a positive percent of one CPU"),
                arguments(List.of("run", "--cpu-quota", "abc", "--", "true"), 2, "Invalid value for option '--cpu-quota': 'abc' is not a whole number in digits 0-9"),
                arguments(List.of("run", "--cpu-quota", "99999999999", "--", "true"), 2, "'99999999999' is not a whole number"),
                arguments(List.of("run", "--cpu-weight", "-1", "--", "true"), 2, "CPU weight must be 1..10000 (100 is the default), not -1"),
                arguments(List.of("run", "--io", "foo", "--", "true"), 2, "I/O priority must be 'idle' or 'be:N'"),
                arguments(List.of("run", "--io", "be:x", "--", "true"), 2, "not 'be:x'"),
                arguments(List.of("run", "--policy", "batch+idle", "--", "true"), 2,
                        "gives the scheduling class twice ('batch' and 'idle'); give each part once"),
                arguments(List.of("run", "--policy", "nice20", "--", "true"), 2, "nice must be 0..19 (19 is the lowest priority), not 20"),
                arguments(List.of("run", "--policy", "quota0", "--", "true"), 2, "CPU quota must be a positive percent"),
                arguments(List.of("run", "--policy", "weight20000", "--", "true"), 2, "CPU weight must be 1..10000"),
                arguments(List.of("run", "--policy", "cpus=", "--", "true"), 2, "CPU list is empty; write CPUs as in taskset -c"),
                arguments(List.of("run", "--policy", "io-be2", "--", "true"), 2,
                        "I/O priority 'be:2' raises priority above the default be:4 and is not allowed here; use idle or be:4..be:7"),
                arguments(List.of("run", "--policy", "rr", "--", "true"), 2, "scheduling class 'rr' raises priority and is not allowed here"),
                arguments(List.of("run", "--policy", "batch++nice5", "--", "true"), 2, "unknown policy token '' in 'batch++nice5'; use tokens joined by '+'"),
                arguments(List.of("run", "--nice", "2147483648", "--", "true"), 2, "Invalid value for option '--nice'"),
                arguments(List.of("run", "--cpu-quota", "50", "--cgroup-parent", dir.resolve("absent").toString(), "--", "true"), 125,
                        "policy not applied: cannot create a cgroup for 'quota50'"),
                arguments(List.of("run", "--", notExecutable.toString()), 126, "command not executable: " + notExecutable),
                arguments(List.of("run", "--policy", "idle", "--", "no-such-command-anywhere"), 127, "command not found: no-such-command-anywhere"));
    }

    static Stream<Arguments> probe() {
        return Stream.of(
                arguments(List.of("probe", "--policy", "turbo"), 2, "unknown policy token 'turbo'"),
                arguments(List.of("probe", "--policy", "nice20"), 2, "nice must be 0..19"),
                arguments(List.of("probe", "--policy", "cpus=a"), 2, "CPU list 'a' is not valid"),
                arguments(List.of("probe", "--bogus"), 2, "Unknown option: '--bogus'"),
                arguments(List.of("probe", "extra"), 2, "Unmatched argument at index 1: 'extra'"));
    }

    /** With --out in the temp dir: should a case ever be accepted, its run must not write into the checkout. */
    @SuppressWarnings("unchecked")
    static Stream<Arguments> bench() {
        return benchCases().map(a -> {
            List<String> args = new ArrayList<>((List<String>) a.get()[0]);
            args.addAll(List.of("--out", dir.resolve("bench-out").toString()));
            return arguments(args, a.get()[1], a.get()[2]);
        });
    }

    static Stream<Arguments> benchCases() {
        return Stream.of(
                arguments(List.of("bench", "--quick", "--full"), 2, "the quick and the full preset exclude each other; give one of them"),
                arguments(List.of("bench", "--policies", "turbo"), 2, "unknown policy token 'turbo'"),
                arguments(List.of("bench", "--policies", "default,,idle"), 2, "policy is empty; use tokens joined by '+'"),
                arguments(List.of("bench", "--loads", "-1"), 2, "load -1.0 is out of range; loads are multiples of the CPU count from 0 to 64"),
                arguments(List.of("bench", "--loads", "65"), 2, "load 65.0 is out of range"),
                arguments(List.of("bench", "--loads", "1,2,1"), 2, "load 1.0 is listed twice"),
                arguments(List.of("bench", "--loads", "abc"), 2, "Invalid value for option '--loads' (LIST): 'abc' is not a double"),
                arguments(List.of("bench", "--repetitions", "0"), 2, "repetitions must be 1..100, not 0"),
                arguments(List.of("bench", "--duration", "50"), 2, "duration must be 100..600000 ms, not 50"),
                arguments(List.of("bench", "--seed", "x"), 2, "Invalid value for option '--seed': 'x' is not a long"),
                arguments(List.of("bench", "--scenario", "no-such-scenario"), 2, "unknown scenario 'no-such-scenario'"),
                arguments(List.of("bench", "--scenario", dir.resolve("absent.scenario").toString()), 2, "absent.scenario does not exist"));
    }

    static Stream<Arguments> scenarioFiles() {
        return Stream.of(
                arguments("", ":1:1: 'name' is required in the header"),
                arguments("name = bad\ncolour = red\n[victim]\nworkload = cpu-victim\n" + MATRIX,
                        ":2:1: unknown key 'colour' in the header; allowed: description, expect"),
                arguments("name = bad\n[victims]\nworkload = cpu-victim\n" + MATRIX,
                        ":2:2: unknown section [victims]; use one of [victim], [background], [matrix], [quick]"),
                arguments("name = bad\n[victim]\nworkload cpu-victim\n" + MATRIX, ":3:1: expected 'key = value', a [section] or a # comment"),
                arguments("name = bad\n[victim\nworkload = cpu-victim\n" + MATRIX, ":2:8: section header lacks ']'"),
                arguments("name = bad\n[victim]\nworkload = turbo\n" + MATRIX,
                        ":3:12: unknown workload 'turbo'; [victim] takes cpu-victim, periodic"),
                arguments("name = bad\n[background]\nworkload = cpu-victim\n" + MATRIX,
                        "'cpu-victim' is a fixed-work victim, not a background load; backgrounds: cpu-looper"),
                arguments("name = Bad_Name\n[victim]\nworkload = cpu-victim\n" + MATRIX, "name 'Bad_Name' must be lower-case letters, digits and '-'"),
                arguments(VICTIM, ":4:1: a [matrix] section with policies and loads is required"),
                arguments(VICTIM + "command = true\n" + MATRIX, "[victim] sets both 'workload' and 'command'; choose one"),
                arguments(VICTIM + "workers = 1\nworkers = 2\n" + MATRIX, ":5:1: 'workers' is set twice (first on line 4)"),
                arguments(VICTIM + "pin = sometimes\n" + MATRIX, "pin must be 'none' or 'per-copy', not 'sometimes'"),
                arguments(VICTIM + "per-load = 2\n" + MATRIX, "'per-load' belongs to [background]"),
                arguments("name = bad\n[victim]\nworkload = periodic\nwork-share = 1.5\n" + MATRIX,
                        "work-share is the busy fraction of each period, between 0 and 1 exclusive"),
                arguments(VICTIM + "[victim]\nworkload = cpu-victim\n" + MATRIX, ":4:1: section [victim] appears twice (first on line 2)"),
                arguments(VICTIM + "[matrix]\npolicies = default, turbo\nloads = 1\n", ":5:21: policy 'turbo': unknown policy token 'turbo'"),
                arguments(VICTIM + "[matrix]\npolicies = idle, idle\nloads = 1\n", ":5:18: policy 'idle' is listed twice"),
                arguments(VICTIM + "[matrix]\npolicies = default\nloads = 1, 70\n",
                        ":6:12: load 70 is out of range; loads are multiples of the CPU count from 0 to 64"),
                arguments(VICTIM + MATRIX + "repetitions = 0\n", ":7:15: 'repetitions' must be between 1 and 100, not 0"),
                arguments(VICTIM + MATRIX + "duration = 3 weeks\n", ":7:12: duration must look like 2s, 2.5s or 1500ms, not '3 weeks'"));
    }

    static Stream<Arguments> commandLines() {
        return Stream.of(run(), probe(), bench()).flatMap(s -> s);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("commandLines")
    void shouldExplainBadInputWithItsExitCode(final List<String> args, final int exitCode, final String message) {
        CliRun r = CliRun.of(args.toArray(String[]::new));
        assertThat(r.err()).contains(message);
        assertThat(r.stackTraceLines()).as("no stack trace").isZero();
        assertThat(r.code()).as(r.err()).isEqualTo(exitCode);
        if (exitCode == 2) {
            assertThat(r.out()).as("nothing ran").doesNotContain("schedpolicy bench:", "Report:");
        }
    }

    @ParameterizedTest(name = "scenario file -> {1}")
    @MethodSource("scenarioFiles")
    void shouldPointAtTheLineAndColumnOfABadScenarioFile(final String content, final String message) throws IOException {
        Path file = Files.writeString(Files.createTempFile(dir, "bad", ".scenario"), content);
        CliRun r = CliRun.of("bench", "--scenario", file.toString());
        assertThat(r.err()).startsWith("schedpolicy bench: " + file).contains(message);
        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.out()).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("commandLines")
    void shouldSayWhatIsAllowedOnOneLine(final List<String> args, final int exitCode, final String message) {
        List<String> lines = new ArrayList<>(CliRun.of(args.toArray(String[]::new)).err().lines().toList());
        lines.removeIf(l -> l.startsWith("Try '"));
        assertThat(lines).as("one message line").hasSize(1);
    }
}
