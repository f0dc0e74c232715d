package dev.schedpolicy.engine.agent;

import dev.schedpolicy.engine.launch.LaunchConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The registry of a connection that is gone. A Jenkins agent loads the engine's classes again with every connection, and
 * the earlier copy's registry and its reaper thread stayed in the agent JVM for good, one more per reconnect. Detached,
 * it keeps what still runs (a block open across the reconnect ends through the next connection's registry) and its
 * reaper ends once it holds nothing.
 */
@EnabledOnOs(OS.LINUX)
class DetachedRegistryITest {
    @TempDir
    Path state;

    private HandshakeRegistry registry;

    @AfterEach
    void tearDown() {
        registry.close();
    }

    @Test
    void shouldEndItsReaperAtOnceWhenItHoldsNothing() throws Exception {
        int before = reapers();
        registry = registry();
        assertThat(reapers()).isEqualTo(before + 1);

        registry.detach();

        assertThat(waitForReapers(before)).as("reaper threads once the detached registry holds nothing").isEqualTo(before);
    }

    @Test
    void shouldKeepARunningLaunchsGroupAndEndItsReaperOnceTheGroupIsEmpty() throws Exception {
        int before = reapers();
        registry = registry();
        PreparedLaunch prepared = registry.prepare(LaunchRequest.of("block-d", "quota50+warn")
                .pendingFor(Duration.ofSeconds(30)));
        Path go = state.resolve("go");
        Process p = new ProcessBuilder(prepared.prefix(List.of("sh", "-c", "while [ ! -e " + go + " ]; do sleep 0.05; done"))).start();
        LaunchRecord record = registry.release(prepared.id(), Duration.ofSeconds(10));
        assumeTrue(record.warnings().isEmpty(), "needs a writable cpu cgroup (CI runs as root): " + record.warnings());
        Path dir = Path.of("/sys/fs/cgroup/cpu" + record.cpuCgroup());
        assumeTrue(Files.isDirectory(dir), "needs the v1 cpu hierarchy at /sys/fs/cgroup/cpu: " + dir);

        registry.detach();
        Thread.sleep(500); // five reaper rounds

        assertThat(p.isAlive()).as("the running launch").isTrue();
        assertThat(dir).as("its group").isDirectory();
        assertThat(reapers()).as("the reaper still watches the group").isEqualTo(before + 1);

        Files.createFile(go);
        assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(waitForReapers(before)).as("reaper threads once the group was empty and removed").isEqualTo(before);
        assertThat(dir).as("the emptied group").doesNotExist();
    }

    private HandshakeRegistry registry() {
        return new HandshakeRegistry(LaunchConfig.defaults().withStateDir(state), Path.of("/proc"), Duration.ofMillis(100));
    }

    private static int reapers() {
        return (int) Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("schedpolicy-registry") && t.isAlive()).count();
    }

    private static int waitForReapers(final int wanted) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (reapers() != wanted && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        return reapers();
    }
}
