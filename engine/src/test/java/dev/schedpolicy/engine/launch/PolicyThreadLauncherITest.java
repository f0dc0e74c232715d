package dev.schedpolicy.engine.launch;

import dev.schedpolicy.engine.policy.InvalidPolicyException;
import dev.schedpolicy.engine.policy.Policy;
import dev.schedpolicy.engine.proc.ProcFs;
import dev.schedpolicy.engine.proc.TaskStat;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@EnabledOnOs(OS.LINUX)
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
@Tag("kernel")
class PolicyThreadLauncherITest {
    @TempDir
    Path state;

    private PolicyThreadLauncher launcher() {
        return new PolicyThreadLauncher(LaunchConfig.defaults().withStateDir(state));
    }

    @Test
    void shouldStartChildUnderBatchNice19AndIdleIo() throws Exception {
        ProcessBuilder pb = new ProcessBuilder("sh", "-c", "cat /proc/self/stat; sleep 0.2");
        try (PolicedProcess p = launcher().start(pb, Policy.parse("batch+nice19+io-idle"))) {
            String out = new String(p.process().getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            assertThat(p.process().waitFor()).isZero();
            TaskStat stat = TaskStat.parse(out.trim());
            assertThat(stat.policy()).isEqualTo(3);
            assertThat(stat.nice()).isEqualTo(19);
            assertThat(p.applied().schedClass()).isEqualTo("batch");
            assertThat(p.applied().io()).isEqualTo("idle");
            assertThat(p.applied().matches()).isTrue();
            assertThat(p.warnings()).isEmpty();
        }
    }

    @Test
    void shouldLeaveTheCallingJvmThreadsUntouched() throws Exception {
        long self = ProcessHandle.current().pid();
        int niceBefore = ProcFs.system().stat(self).orElseThrow().nice();
        try (PolicedProcess p = launcher().start(new ProcessBuilder("true"), Policy.parse("idle+nice19"))) {
            p.process().waitFor();
        }
        TaskStat after = ProcFs.system().stat(self).orElseThrow();
        assertThat(after.nice()).isEqualTo(niceBefore);
        assertThat(after.policy()).isZero();
    }

    @Test
    void shouldLetGrandchildrenInheritThePolicy() throws Exception {
        // the grandchild is a separate sh started by the child; it reports its own stat
        ProcessBuilder pb = new ProcessBuilder("sh", "-c", "sh -c 'cat /proc/self/stat' ; true");
        try (PolicedProcess p = launcher().start(pb, Policy.parse("idle+nice15+cpus=0"))) {
            String out = new String(p.process().getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            p.process().waitFor();
            TaskStat grandchild = TaskStat.parse(out.trim());
            assertThat(grandchild.policy()).isEqualTo(5);
            assertThat(grandchild.nice()).isEqualTo(15);
            assertThat(grandchild.pid()).isNotEqualTo(p.pid());
        }
    }

    @Test
    void shouldRestrictAffinityFromTheFirstInstruction() throws Exception {
        ProcessBuilder pb = new ProcessBuilder("grep", "Cpus_allowed_list", "/proc/self/status");
        try (PolicedProcess p = launcher().start(pb, Policy.parse("cpus=1"))) {
            String out = new String(p.process().getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            assertThat(out).contains("\t1");
        }
    }

    @Test
    void shouldPassExitCodeThroughUnchanged() throws Exception {
        try (PolicedProcess p = launcher().start(new ProcessBuilder("sh", "-c", "exit 42"), Policy.parse("batch"))) {
            assertThat(p.process().waitFor()).isEqualTo(42);
        }
    }

    @Test
    void shouldRefuseRealtimeWithoutAllowRaise() {
        assertThatThrownBy(() -> launcher().start(new ProcessBuilder("true"), Policy.parse("fifo:10")))
                .isInstanceOf(InvalidPolicyException.class).hasMessageContaining("raises priority");
    }

    @Test
    void shouldReportMissingCommandAsIoException() {
        assertThatThrownBy(() -> launcher().start(new ProcessBuilder("/no/such/command"), Policy.parse("batch")))
                .isInstanceOf(IOException.class).hasMessageContaining("No such file");
    }

    @Test
    void shouldReadBackFromChildWhileItRuns() throws Exception {
        try (PolicedProcess p = launcher().start(new ProcessBuilder("sleep", "0.5"), Policy.parse("nice7"))) {
            assertThat(p.applied().readFrom()).isEqualTo("child");
            assertThat(p.applied().pid()).isEqualTo(p.pid());
            assertThat(p.applied().nice()).isEqualTo(7);
            p.destroyTree();
            assertThat(List.of(p.process().waitFor())).isNotEmpty();
        }
    }
}
