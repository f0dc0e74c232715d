package dev.schedpolicy.cli;

import dev.schedpolicy.engine.cgroup.CgroupSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** run as its own process, as this (root, in CI) user: relative priority, closed stdin, a relative cgroup parent. */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WrapperProcessITest {
    @ParameterizedTest(name = "{0} schedpolicy {1} -> {2}")
    @MethodSource("dev.schedpolicy.cli.RelativePriorityMatrix#cases")
    void shouldNeverGiveTheCommandMoreThanItsCaller(final String caller, final String options, final int exitCode, final String text) {
        RelativePriorityMatrix.check(CliRunner.local(), caller, options, exitCode, text);
    }

    @Test
    void shouldLetRootRaiseAboveTheCallerOnlyWithAllowRaise() {
        assumeTrue(ProcessHandle.current().info().user().orElse("").equals("root"), "--allow-raise is for root (CI runs as root)");
        CliRunner.Result r = CliRunner.local().behind("nice", "-n", "10").run(RelativePriorityMatrix.command("--allow-raise --nice 0"));

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.err()).contains("class normal, nice 0");
    }

    @Test
    void shouldMakeProbeAnswerWhatRunDoes() {
        List<String> lines = ProbeRunAgreement.lines(ProbeRunAgreement.POLICIES);

        assertThat(lines).hasSize(ProbeRunAgreement.POLICIES.size()).allSatisfy(l -> assertThat(ProbeRunAgreement.agrees(l)).as(l).isTrue());
    }

    /** The JVM's first open file takes a closed descriptor 0; the command read the JDK's lib/modules as its stdin. */
    @Test
    void shouldKeepAClosedStdinEmptyForTheCommand() {
        List<String> argv = new ArrayList<>(List.of("sh", "-c", "\"$@\" <&- | wc -c", "sh"));
        argv.addAll(CliRunner.local().schedpolicy("run", "--", "cat"));

        CliRunner.Result r = CliRunner.exec(argv);

        assertThat(r.out().trim()).isEqualTo("0");
    }

    @Test
    void shouldResolveARelativeCgroupParentAgainstTheCurrentDirectory() throws Exception {
        Path parent;
        try {
            parent = CgroupSystem.detect().defaultParent(java.util.Optional.empty());
        } catch (RuntimeException e) {
            assumeTrue(false, "no writable cpu cgroup parent here (" + e.getMessage() + "); CI runs as root with one");
            return;
        }
        Path cwd = parent.getParent();
        String relative = cwd.relativize(parent).toString();
        List<String> argv = CliRunner.local().schedpolicy("run", "--cpu-quota", "50", "--cgroup-parent", relative.isEmpty() ? "." : relative,
                "--verify", "--", "true");
        Process p = new ProcessBuilder(argv).directory(cwd.toFile()).start();
        p.getOutputStream().close();
        String err = CliRunner.read(p.getErrorStream());

        assertThat(p.waitFor()).as(err).isZero();
        assertThat(err).contains("cpu cgroup ").contains("schedpolicy-");
        assertThat(Files.exists(cwd)).isTrue();
    }
}
