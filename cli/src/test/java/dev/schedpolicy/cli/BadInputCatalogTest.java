package dev.schedpolicy.cli;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Every bad input gets one clear line that says what is allowed, and a documented exit code. */
class BadInputCatalogTest {
    @TempDir
    static Path tmp;

    static Stream<Arguments> catalog() {
        int tooMuch = Runtime.getRuntime().availableProcessors() * 100 + 1;
        return Stream.of(
                Arguments.of(new String[] {"run", "--policy", "turbo", "--", "true"}, 2, "unknown policy token 'turbo'", "normal|batch|idle"),
                Arguments.of(new String[] {"run", "--nice", "20", "--", "true"}, 2, "nice must be 0..19", "not 20"),
                Arguments.of(new String[] {"run", "--nice", "-1", "--", "true"}, 2, "nice -1 is not allowed here", "0..19"),
                Arguments.of(new String[] {"run", "--policy", "nice-5", "--", "true"}, 2, "nice -5 is not allowed", "negative nice raises"),
                Arguments.of(new String[] {"run", "--policy", "fifo:50", "--", "true"}, 2, "raises priority", "normal, batch, idle"),
                Arguments.of(new String[] {"run", "--policy", "deadline", "--", "true"}, 2, "SCHED_DEADLINE is not supported", "tokens joined by '+'"),
                Arguments.of(new String[] {"run", "--cpu-quota", "0", "--", "true"}, 2, "CPU quota must be a positive percent", "50 for half a CPU"),
                Arguments.of(new String[] {"run", "--cpu-quota", String.valueOf(tooMuch), "--", "true"}, 2, "above the allowed maximum", "1.." + (tooMuch - 1)),
                Arguments.of(new String[] {"run", "--cpu-weight", "0", "--", "true"}, 2, "CPU weight must be 1..10000", "not 0"),
                Arguments.of(new String[] {"run", "--cpu-weight", "10001", "--", "true"}, 2, "CPU weight must be 1..10000", "100 is the default"),
                Arguments.of(new String[] {"run", "--io", "be:9", "--", "true"}, 2, "I/O priority must be 'idle' or 'be:N'", "4..7"),
                Arguments.of(new String[] {"run", "--io", "be:0", "--", "true"}, 2, "raises priority above the default be:4", "be:4..be:7"),
                Arguments.of(new String[] {"run", "--io", "rt:0", "--", "true"}, 2, "raises priority", "idle or be:4..be:7"),
                Arguments.of(new String[] {"run", "--cpus", "1-0", "--", "true"}, 2, "CPU range '1-0'", "low-high"),
                Arguments.of(new String[] {"run", "--cpus", "a", "--", "true"}, 2, "CPU list 'a' is not valid", "taskset -c"),
                Arguments.of(new String[] {"run", "--on-unsupported", "maybe", "--", "true"}, 2, "on-unsupported must be 'fail' or 'warn'", "maybe"),
                Arguments.of(new String[] {"run", "--cpu-idle", "--cpu-weight", "50", "--", "true"}, 2, "cannot be combined", "use one of them"),
                Arguments.of(new String[] {"run", "--guard", "--guard-threshold", "0", "--", "true"}, 2, "--guard-threshold must be 1..99", "got 0"),
                Arguments.of(new String[] {"run", "--guard-threshold", "20", "--", "true"}, 2, "--guard-threshold needs --guard", "--guard"),
                Arguments.of(new String[] {"run", "--guard", "--container", "--cpu-idle", "--", "docker", "run", "x"}, 2, "--guard and --container exclude each other", "runtime's children"),
                Arguments.of(new String[] {"run", "--policy", "batch"}, 2, "Missing required parameter: 'COMMAND'", "--help"),
                Arguments.of(new String[] {"run", "--policy", "batch", "--"}, 2, "Missing required parameter: 'COMMAND'", "--help"),
                Arguments.of(new String[] {"run", "--nice", "x", "--", "true"}, 2, "Invalid value for option '--nice'", "--help"),
                Arguments.of(new String[] {"run", "--bogus", "--", "true"}, 2, "Unknown option: '--bogus'", "--help"),
                Arguments.of(new String[] {"run", "--", "/no/such/command"}, 127, "command not found: /no/such/command", "schedpolicy:"),
                Arguments.of(new String[] {"run", "--", tmp.toString()}, 126, "command not executable", "permission denied"),
                Arguments.of(new String[] {"run", "--cpu-quota", "50", "--cgroup-parent", "/proc/sys", "--", "true"}, 125,
                        "policy not applied", "/proc/sys"),
                Arguments.of(new String[] {"bench", "--loads", "65"}, 2, "load 65.0 is out of range", "from 0 to 64"),
                Arguments.of(new String[] {"bench", "--loads", "1,-1"}, 2, "load -1.0 is out of range", "from 0 to 64"),
                Arguments.of(new String[] {"bench", "--loads", "1,1"}, 2, "load 1.0 is listed twice", "schedpolicy bench:"),
                Arguments.of(new String[] {"bench", "--repetitions", "0"}, 2, "repetitions must be 1..100", "not 0"),
                Arguments.of(new String[] {"bench", "--duration", "50"}, 2, "duration must be 100..600000 ms", "not 50"),
                Arguments.of(new String[] {"bench", "--topology", "same-agent,far-away"}, 2, "unknown topology 'far-away'",
                        "same-agent, outside-agent, other-session, container"),
                Arguments.of(new String[] {"bench", "--topology", "machine"}, 2, "topology 'machine' is no longer offered",
                        "name one of same-agent, outside-agent, other-session, container"),
                Arguments.of(new String[] {"bench", "--quick", "--full"}, 2, "exclude each other", "give one of them"),
                Arguments.of(new String[] {"setup", "--remove", "--user", "jenkins"}, 2, "--remove and --user exclude each other",
                        "schedpolicy:"),
                Arguments.of(new String[] {"frobnicate"}, 2, "Unmatched argument", "--help"),
                Arguments.of(new String[] {}, 2, "a subcommand is needed", "run, probe"));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("catalog")
    void shouldExplainBadInput(final String[] args, final int exitCode, final String message, final String hint) {
        CliRun run = CliRun.of(args);
        assertThat(run.err()).contains(message).contains(hint);
        assertThat(run.stackTraceLines()).as("no stack trace").isZero();
        assertThat(run.code()).isEqualTo(exitCode);
    }
}
