package dev.schedpolicy.cli;

import org.junit.jupiter.params.provider.Arguments;

import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 11 item 4: a caller lowered by nice, chrt or ionice, and what run may then give the command. Shared by
 * the root and the unprivileged-user suites, which must answer the same.
 */
final class RelativePriorityMatrix {
    private RelativePriorityMatrix() {
    }

    /** caller prefix, run options, expected exit code, expected text (stderr when refused, --verify when run). */
    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("nice -n 10", "--nice 0", 2, "nice 0 is more favoured than the caller's nice 10; use 10..19"),
                Arguments.of("nice -n 10", "--nice 5", 2, "nice 5 is more favoured than the caller's nice 10"),
                Arguments.of("nice -n 10", "--policy normal", 0, "class normal, nice 10"),
                Arguments.of("nice -n 10", "--nice 15", 0, "class normal, nice 15"),
                Arguments.of("nice -n 10", "--io be:4", 2, "I/O priority be:4 is more favoured than the caller's be:6"),
                Arguments.of("chrt -i 0", "--policy normal", 2, "scheduling class normal is more favoured than the caller's idle; use idle"),
                Arguments.of("chrt -i 0", "--policy batch", 2, "scheduling class batch is more favoured than the caller's idle"),
                Arguments.of("chrt -i 0", "--policy idle", 0, "class idle"),
                Arguments.of("chrt -i 0", "--nice 5", 0, "class idle, nice 5"),
                Arguments.of("chrt -b 0", "--policy normal", 2, "scheduling class normal is more favoured than the caller's batch"),
                Arguments.of("ionice -c3", "--io be:4", 2, "I/O priority be:4 is more favoured than the caller's idle; use idle"),
                Arguments.of("ionice -c3", "--io idle", 0, "io idle"),
                Arguments.of("ionice -c2 -n6", "--io be:7", 0, "io be:7"));
    }

    static void check(final CliRunner runner, final String caller, final String options, final int exitCode, final String text) {
        CliRunner.Result r = runner.behind(caller.split(" ")).run(command(options));

        assertThat(r.exitCode()).as(r.err()).isEqualTo(exitCode);
        assertThat(r.err()).contains(text);
        if (exitCode != 0) {
            assertThat(r.err()).contains("--allow-raise as root").doesNotContain("lowering is always allowed");
        }
    }

    static String[] command(final String options) {
        return ("run " + options + " --verify -- true").split(" ");
    }
}
