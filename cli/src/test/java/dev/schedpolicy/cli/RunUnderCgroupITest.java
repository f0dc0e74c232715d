package dev.schedpolicy.cli;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * schedpolicy run with a cgroup policy, as a real process. On cgroup v2 such a launch goes through the park shim
 * ({@code sh}), where a missing command used to surface as the shell's raw "exec: ...: not found"; it must read
 * as without a cgroup policy, on every layout.
 */
@EnabledOnOs(OS.LINUX)
@Tag("kernel")
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RunUnderCgroupITest {
    @ParameterizedTest
    @ValueSource(strings = {"/no/such/command", "no-such-command-schedpolicy"})
    void shouldSayCommandNotFoundUnderACgroupPolicy(final String command) throws Exception {
        Process p = RunProcessITest.schedpolicy("run", "--cpu-quota", "50", "--", command).start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(err).isEqualTo(127);
        assertThat(err).contains("schedpolicy: command not found: " + command).doesNotContain("exec:");
    }

    @ParameterizedTest
    @ValueSource(strings = {"plain-file", ""})
    void shouldSayNotExecutableUnderACgroupPolicy(final String name, @TempDir final Path dir) throws Exception {
        // a file without execute bits (root may run any file with one), or a directory
        String command = Files.writeString(dir.resolve("x" + name), "true\n").toString();
        if (name.isEmpty()) {
            Files.delete(Path.of(command));
            command = Files.createDirectory(Path.of(command)).toString();
        }
        Process p = RunProcessITest.schedpolicy("run", "--cpu-weight", "50", "--", command).start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(err).isEqualTo(126);
        assertThat(err).contains("schedpolicy: command not executable: " + command);
    }

    /**
     * Under warn, a cgroup part that cannot be made is a warning: on a terminal one short line and where the rest is
     * (the engine's full words ran to about 250 characters), in full with --verbose. The parent is outside the cpu
     * hierarchy on every layout.
     */
    @org.junit.jupiter.api.Test
    void shouldWarnInOneShortLineAndInFullWithVerbose(@TempDir final Path dir) throws Exception {
        String[] common = {"--cpu-quota", "50", "--on-unsupported", "warn", "--cgroup-parent", dir.toString()};
        Process p = RunProcessITest.schedpolicy(args("run", common, "--", "true")).start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(err).isZero();
        assertThat(err.lines()).containsExactly("schedpolicy: warning: cgroup controls skipped",
                "schedpolicy: (--verbose prints the warnings in full; docs/usage.md says what they mean)");

        Process verbose = RunProcessITest.schedpolicy(args("run", common, "--verbose", "--", "true")).start();
        String full = new String(verbose.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(verbose.waitFor()).as(full).isZero();
        assertThat(full.lines()).singleElement().asString().startsWith("schedpolicy: warning: cgroup controls skipped: ")
                .contains(dir + " is not inside the");
    }

    private static String[] args(final String first, final String[] middle, final String... rest) {
        java.util.List<String> all = new java.util.ArrayList<>();
        all.add(first);
        all.addAll(java.util.List.of(middle));
        all.addAll(java.util.List.of(rest));
        return all.toArray(String[]::new);
    }
}
