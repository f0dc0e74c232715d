package dev.schedpolicy.cli;

import dev.schedpolicy.engine.cgroup.CgroupSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The promises of run that a user relies on without reading the docs (issue 11), in-process: one clear line and
 * the documented code for every bad input, and 125 only when the command did not run. Commands here write
 * nothing to stdout, which is this test JVM's own.
 */
@EnabledOnOs(OS.LINUX)
class WrapperContractTest {
    @TempDir
    static Path tmp;

    record Outcome(int code, String err) {
    }

    static Outcome execute(final String... args) {
        StringWriter err = new StringWriter();
        var cl = Main.commandLine();
        cl.setErr(new PrintWriter(err, true));
        cl.setOut(new PrintWriter(new StringWriter(), true));
        int code = cl.execute(args);
        return new Outcome(code, err.toString());
    }

    static Stream<Arguments> badInput() throws Exception {
        Path noInterpreter = tmp.resolve("no-interpreter.sh");
        Files.writeString(noInterpreter, "#!/no/such/interpreter\necho hi\n");
        Files.setPosixFilePermissions(noInterpreter, PosixFilePermissions.fromString("rwxr-xr-x"));
        List<Arguments> cases = new ArrayList<>();
        for (String option : List.of("--nice 5 --nice 6", "--io idle --io be:7", "--policy idle --policy batch", "--cpu-idle --cpu-idle",
                "--cpu-quota 50 --cpu-quota 60", "--cpus 0 --cpus 0")) {
            String name = option.split(" ")[0];
            List<String> args = new ArrayList<>(List.of("run"));
            args.addAll(List.of(option.split(" ")));
            args.addAll(List.of("--", "true"));
            cases.add(Arguments.of(args.toArray(String[]::new), 2, "option '" + name + "'", "should be specified only once"));
        }
        for (String option : List.of("--policy", "--io", "--cpus", "--on-unsupported", "--cgroup-parent")) {
            for (String empty : List.of("", " ")) {
                cases.add(Arguments.of(new String[] {"run", option, empty, "--", "true"}, 2, option + " is empty", "leave the option out"));
            }
        }
        cases.addAll(List.of(
                Arguments.of(new String[] {"run", "--io", "be:9", "--", "true"}, 2, "with N 4..7", "not 'be:9'"),
                Arguments.of(new String[] {"run", "--policy", "rr:0", "--", "true"}, 2, "realtime priority must be 1..99",
                        "allowed only where raising is (--allow-raise as root), otherwise use normal, batch, idle"),
                Arguments.of(new String[] {"run", "--nice", "-21", "--", "true"}, 2, "nice must be -20..19 where raising is allowed",
                        "(0..19 otherwise), not -21"),
                Arguments.of(new String[] {"run", "--nice", "\u0661\u0669", "--", "true"}, 2, "Invalid value for option '--nice'",
                        "not a whole number in digits 0-9"),
                Arguments.of(new String[] {"run", "--cpu-quota", "\u0665\u0660", "--", "true"}, 2, "Invalid value for option '--cpu-quota'",
                        "digits 0-9"),
                Arguments.of(new String[] {"run", "--policy", "idle\u0001", "--", "true"}, 2, "policy 'idle\\u0001' contains U+0001",
                        "only printable ASCII"),
                Arguments.of(new String[] {"run", "--io", "idle\u0001", "--", "true"}, 2, "contains U+0001", "only printable ASCII"),
                Arguments.of(new String[] {"run", "--", noInterpreter.toString()}, 126, "bad interpreter", "/no/such/interpreter"),
                Arguments.of(new String[] {"probe", "--policy", "", "--json"}, 2, "--policy is empty", "leave the option out"),
                Arguments.of(new String[] {"probe", "--nice", "5", "--nice", "6"}, 2, "option '--nice'", "only once")));
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("badInput")
    void shouldRefuseBadInputWithOneClearLine(final String[] args, final int exitCode, final String message, final String hint) {
        Outcome o = execute(args);

        assertThat(o.err()).contains(message).contains(hint).doesNotContain("expected only one match");
        assertThat(o.err().lines().filter(l -> l.startsWith("\tat ")).count()).as("no stack trace").isZero();
        assertThat(o.code()).isEqualTo(exitCode);
    }

    /** A realtime class cannot run in a new v1 group without realtime runtime: the message names that, not CAP_SYS_NICE. */
    @Test
    void shouldBlameTheGroupsRealtimeRuntimeForRealtimeWithACgroupControl() {
        assumeTrue(ProcessHandle.current().info().user().orElse("").equals("root"), "--allow-raise is for root (CI runs as root)");
        assumeTrue(CgroupSystem.detect().cpuHierarchy().map(h -> Files.exists(h.mountPoint().resolve("cpu.rt_runtime_us"))).orElse(false),
                "this kernel has no realtime group scheduling (cpu.rt_runtime_us), so a realtime class works in a new group");
        Outcome o = execute("run", "--allow-raise", "--policy", "rr", "--cpu-quota", "50", "--", "true");

        assertThat(o.code()).isEqualTo(ExitCodes.POLICY_NOT_APPLIED);
        assertThat(o.err()).contains("cpu.rt_runtime_us is 0").doesNotContain("CAP_SYS_NICE").doesNotContain("lowering is always allowed");
    }

    /** Options end at the command, as for nice, chrt and timeout: the command gets everything after its name. */
    @Test
    void shouldPassOptionsAfterTheCommandToTheCommand() {
        assertThat(execute("run", "--policy", "idle", "sh", "-c", "test \"$1\" = --verify", "sh", "--verify").code()).isZero();
        assertThat(execute("run", "--policy", "idle", "test", "--nice", "=", "--nice").code()).isZero();
    }

    /**
     * A command that lowers itself further right away is legitimate: 50 runs each, 0 false 125s (5 of 8 and
     * 6 of 8 before). 125 is reserved for "the command did not run"; the marker proves that it did.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"--nice|5|nice|-n|5", "--io|be:5|ionice|-c3", "--policy|batch|chrt|-i|0"})
    void shouldNeverAnswer125AfterTheCommandRan(final String spec) throws Exception {
        String[] parts = spec.split("\\|");
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            Path marker = tmp.resolve("ran-" + parts[0] + "-" + i);
            List<String> args = new ArrayList<>(List.of("run", parts[0], parts[1], "--"));
            args.addAll(List.of(parts).subList(2, parts.length));
            args.addAll(List.of("sh", "-c", "touch \"$1\"", "sh", marker.toString()));
            Outcome o = execute(args.toArray(String[]::new));
            if (o.code() != 0 || !Files.exists(marker)) {
                failures.add("run " + i + ": exit " + o.code() + ", ran " + Files.exists(marker) + ": " + o.err());
            }
        }
        assertThat(failures).isEmpty();
    }
}
