package dev.schedpolicy.engine.launch;

import dev.schedpolicy.engine.policy.Policy;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

@EnabledOnOs(OS.LINUX)
@Tag("kernel")
class DestroyTreeITest {
    @TempDir
    Path state;

    /** Killed children first, the shell used to run 'wait' and exit 0 before its own SIGKILL arrived. */
    @RepeatedTest(10)
    void shouldReportTheProcessAsKilledAndLeaveNoDescendant() throws Exception {
        PolicyThreadLauncher launcher = new PolicyThreadLauncher(LaunchConfig.defaults().withStateDir(state));
        PolicedProcess p = launcher.start(new ProcessBuilder("sh", "-c", "sleep 5 & sleep 5; wait"), Policy.parse("batch"));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (p.process().descendants().count() < 2 && System.nanoTime() < deadline) {
            Thread.sleep(2);
        }
        List<ProcessHandle> children = p.process().descendants().toList();
        assertThat(children).hasSize(2);

        p.destroyTree();

        assertThat(p.process().waitFor()).as("exit status of a SIGKILLed process").isEqualTo(137);
        for (ProcessHandle child : children) {
            assertThat(child.onExit().get(5, TimeUnit.SECONDS).isAlive()).isFalse();
        }
    }
}
