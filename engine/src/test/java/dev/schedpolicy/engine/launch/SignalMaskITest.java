package dev.schedpolicy.engine.launch;

import dev.schedpolicy.engine.policy.Policy;
import dev.schedpolicy.engine.proc.ProcFs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import java.nio.charset.StandardCharsets;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The JVM blocks SIGQUIT in every Java thread and a child inherits its spawning thread's mask: commands ran with
 * SIGQUIT blocked ({@code kill -3 $$} did nothing). Launches now spawn with the mask of the main thread, which
 * keeps the one the JVM was started with.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SignalMaskITest {
    private static final long SIGQUIT_BIT = 1L << 2;

    private static long mainThreadMask() {
        long pid = ProcessHandle.current().pid();
        return ProcFs.system().signalSet(pid, OptionalLong.of(pid), "SigBlk").orElseThrow();
    }

    private static String status(final Process p) throws Exception {
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).isZero();
        return out.lines().filter(l -> l.startsWith("SigBlk:")).findFirst().orElseThrow().substring(7).trim();
    }

    @Test
    void shouldGiveThePolicedCommandTheCallersSignalMask() throws Exception {
        try (PolicedProcess p = new PolicyThreadLauncher(LaunchConfig.defaults())
                .start(new ProcessBuilder("cat", "/proc/self/status"), Policy.parse("batch+nice5"))) {
            long blocked = Long.parseUnsignedLong(status(p.process()), 16);
            assertThat(blocked & SIGQUIT_BIT).as("SIGQUIT blocked").isZero();
            assertThat(blocked).isEqualTo(mainThreadMask());
        }
    }

    @Test
    void shouldSpawnParkedLaunchesWithTheCallersSignalMask() throws Exception {
        Process p = Caller.spawn(LaunchConfig.defaults(), new ProcessBuilder("cat", "/proc/self/status"));
        assertThat(Long.parseUnsignedLong(status(p), 16)).isEqualTo(mainThreadMask());
    }

    @Test
    void shouldLetTheCommandDieFromItsOwnSigquit() throws Exception {
        try (PolicedProcess p = new PolicyThreadLauncher(LaunchConfig.defaults()).start(
                new ProcessBuilder("sh", "-c", "ulimit -c 0; kill -QUIT $$; echo alive"), Policy.parse("idle"))) {
            String out = new String(p.process().getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.process().waitFor()).isEqualTo(128 + 3);
            assertThat(out).isEmpty();
        }
    }
}
