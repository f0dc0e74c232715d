package dev.schedpolicy.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/**
 * {@code probe --policy X}: its exit code says whether run would apply X (issue 18 item 3), and a policy run would
 * not apply is never also reported as applied. The probe tries each policy for real on a scratch process.
 */
@Tag("kernel")
@EnabledOnOs(OS.LINUX)
class ProbeExitCodesITest {

    @Test
    void shouldExitZeroWhenRunWouldApplyThePolicy() {
        CliRun r = CliRun.of("probe", "--policy", "idle");

        assertThat(r.out()).contains("Policy 'idle' can be applied here");
        assertThat(r.code()).isEqualTo(ExitCodes.OK);
    }

    @Test
    void shouldExit125AndNeverSayAppliedWhenRunRefusesTheClass() {
        CliRun r = CliRun.of("probe", "--policy", "fifo");

        assertThat(r.out()).contains("Policy 'fifo:1' cannot be applied here: run refuses it (exit 2)");
        assertThat(r.out().lines().filter(l -> l.startsWith("Note:")).toList())
                .as("no note about a refused policy's effect").isEmpty();
        assertThat(r.out()).doesNotContain("is applied").doesNotContain("fifo is applied");
        assertThat(r.code()).isEqualTo(ExitCodes.POLICY_NOT_APPLIED);
    }

    @Test
    void shouldExit125WhenRunCannotApplyThePolicy() {
        // a cgroup parent that does not exist at the top of the cpu hierarchy (v1's cpu controller, or the v2 tree):
        // run would try, fail to make the group, and exit 125 (a path outside the hierarchy: the test below)
        String top = Files.exists(Path.of("/sys/fs/cgroup/cpu/cpu.shares")) ? "/sys/fs/cgroup/cpu" : "/sys/fs/cgroup";
        CliRun r = CliRun.of("probe", "--policy", "idle+quota50", "--cgroup-parent", top + "/schedpolicy-no-such-parent");

        assertThat(r.out()).as("stderr: %s", r.err()).contains("Policy 'idle+quota50' cannot be applied here: run would exit 125");
        assertThat(r.out()).doesNotContain("is applied");
        assertThat(r.code()).isEqualTo(ExitCodes.POLICY_NOT_APPLIED);
    }

    /** On cgroup v2 this ended with "cannot read /tmp/cgroup.controllers" and exit 1 (kernel lab, 6.1). */
    @Test
    void shouldSayAParentOutsideTheCgroupFilesystemIsNotUsable() {
        CliRun probe = CliRun.of("probe", "--policy", "quota50", "--cgroup-parent", "/tmp");
        CliRun run = CliRun.of("run", "--cpu-quota", "50", "--cgroup-parent", "/tmp", "--", "true");

        assertThat(probe.out()).as("stderr: %s", probe.err())
                .contains("Policy 'quota50' cannot be applied here: run would exit 125")
                .contains("/tmp is not inside the V");
        assertThat(probe.code()).isEqualTo(ExitCodes.POLICY_NOT_APPLIED);
        assertThat(run.err()).contains("/tmp is not inside the V");
        assertThat(run.code()).isEqualTo(ExitCodes.POLICY_NOT_APPLIED);
    }

    @Test
    void shouldExitTwoForAPolicyItCannotParse() {
        CliRun r = CliRun.of("probe", "--policy", "idle+turbo");

        assertThat(r.err()).contains("unknown policy token 'turbo'");
        assertThat(r.code()).isEqualTo(ExitCodes.USAGE);
    }

    @Test
    void shouldListItsExitCodesInItsHelp() {
        CliRun r = CliRun.of("probe", "--help");

        assertThat(r.out()).contains("Exit codes:").containsPattern("(?m)^  0 +the probe ran")
                .containsPattern("(?m)^  2 +usage error").containsPattern("(?m)^  125 +with policy options: run would not");
        assertThat(r.code()).isZero();
    }
}
