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
 * A block whose launches were made by another registry than the one that ends it: a Jenkins agent that lost its
 * connection mid-block (the engine's classes come again over the new connection, with a new registry), an agent JVM
 * or a controller killed and started again. The build's record names the block's groups; ending the block removes
 * those groups too, with anything left inside, and reports their usage. Before, the block ended with usage "none"
 * and the group stayed for as long as the agent JVM lived (live suite 90-fault-drop: connection dropped mid-step).
 */
@EnabledOnOs(OS.LINUX)
class AdoptedGroupsITest {
    @TempDir
    Path state;

    private HandshakeRegistry before;
    private HandshakeRegistry after;

    @AfterEach
    void tearDown() {
        for (HandshakeRegistry r : new HandshakeRegistry[] {before, after}) {
            if (r != null) {
                r.close();
            }
        }
    }

    @Test
    void shouldRemoveTheRecordedGroupsOfABlockAnotherRegistryStarted() throws Exception {
        before = registry();
        PreparedLaunch prepared = before.prepare(LaunchRequest.of("block-r", "quota50+warn")
                .pendingFor(Duration.ofSeconds(30)));
        Process p = new ProcessBuilder(prepared.prefix(List.of("sh", "-c", "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; sleep 30")))
                .start();
        LaunchRecord record = before.release(prepared.id(), Duration.ofSeconds(10));
        assumeTrue(record.warnings().isEmpty(), "needs a writable cpu cgroup (CI runs as root): " + record.warnings());
        String group = record.cpuCgroup();
        Path dir = Path.of("/sys/fs/cgroup/cpu" + group);
        assumeTrue(Files.isDirectory(dir), "needs the v1 cpu hierarchy at /sys/fs/cgroup/cpu: " + dir);

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (p.descendants().findAny().isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(10); // the loop is done (CPU used, so usage to report) once the shell started its sleep
        }
        after = registry(); // the old one is never asked again, as an agent's registry of a closed connection
        UsageRecord usage = after.finishBlock("block-r", List.of(group, "/", "/not-ours/x"));

        assertThat(usage.groups()).as("groups measured at the end of the block").isEqualTo(1);
        assertThat(usage.usageUsec()).isPositive();
        assertThat(p.waitFor(10, TimeUnit.SECONDS)).as("the block's process was ended with its group").isTrue();
        assertThat(dir).as("the block's group after the block ended").doesNotExist();
    }

    /**
     * A recorded group whose process outlives its SIGKILL (frozen here) stays past the block's end, and the ending
     * registry's reaper removes it once empty: its maker may be this very agent JVM, under a registry of a closed
     * connection that no longer reaps, so the sweep of dead makers' groups would never take it.
     */
    @Test
    void shouldRemoveARecordedGroupThatStayedBusyPastTheBlocksEndOnceItEmpties() throws Exception {
        FrozenProcess.assumeFreezer();
        before = registry();
        PreparedLaunch prepared = before.prepare(LaunchRequest.of("block-f", "quota50+warn")
                .pendingFor(Duration.ofSeconds(30)));
        Process p = new ProcessBuilder(prepared.prefix(List.of("sleep", "60"))).start();
        LaunchRecord record = before.release(prepared.id(), Duration.ofSeconds(10));
        assumeTrue(record.warnings().isEmpty(), "needs a writable cpu cgroup (CI runs as root): " + record.warnings());
        Path dir = Path.of("/sys/fs/cgroup/cpu" + record.cpuCgroup());
        assumeTrue(Files.isDirectory(dir), "needs the v1 cpu hierarchy at /sys/fs/cgroup/cpu: " + dir);
        FrozenProcess frozen = FrozenProcess.freeze(p.pid());
        try (frozen) {
            after = registry();
            UsageRecord usage = after.finishBlock("block-f", List.of(record.cpuCgroup()));

            assertThat(usage.groups()).as("the recorded group measured").isEqualTo(1);
            assertThat(dir).as("held by the frozen process").isDirectory();
            frozen.thaw();
            assertThat(p.waitFor(10, TimeUnit.SECONDS)).as("the SIGKILL lands once thawed").isTrue();
            assertThat(HandshakeRegistryITest.reapedWithin(after, dir, Duration.ofSeconds(5)))
                    .as("removed by the ending registry's reaper once empty").isTrue();
        } finally {
            p.destroyForcibly().waitFor();
            frozen.remove();
        }
    }

    /**
     * A block's end takes only groups the block made: a group this registry holds for another block is that block's,
     * whatever the ending block's record lists (a name given again, a record that lists what it should not).
     */
    @Test
    void shouldLeaveAGroupThisRegistryHoldsForAnotherBlockWhenABlockEnds() throws Exception {
        after = registry();
        PreparedLaunch mine = after.prepare(LaunchRequest.of("block-old", "quota50+warn")
                .pendingFor(Duration.ofSeconds(30)));
        Process own = new ProcessBuilder(mine.prefix(List.of("sleep", "30"))).start();
        LaunchRecord ownRecord = after.release(mine.id(), Duration.ofSeconds(10));
        assumeTrue(ownRecord.warnings().isEmpty(), "needs a writable cpu cgroup (CI runs as root): " + ownRecord.warnings());
        PreparedLaunch theirs = after.prepare(LaunchRequest.of("block-new", "quota50+warn")
                .pendingFor(Duration.ofSeconds(30)));
        Process other = new ProcessBuilder(theirs.prefix(List.of("sleep", "30"))).start();
        String otherGroup = after.release(theirs.id(), Duration.ofSeconds(10)).cpuCgroup();
        Path otherDir = Path.of("/sys/fs/cgroup/cpu" + otherGroup);
        assumeTrue(Files.isDirectory(otherDir), "needs the v1 cpu hierarchy at /sys/fs/cgroup/cpu: " + otherDir);

        UsageRecord usage = after.finishBlock("block-old", List.of(ownRecord.cpuCgroup(), otherGroup));

        assertThat(usage.groups()).as("groups the ending block made").isEqualTo(1);
        assertThat(own.waitFor(10, TimeUnit.SECONDS)).as("the ending block's process").isTrue();
        assertThat(other.isAlive()).as("the other block's process").isTrue();
        assertThat(otherDir).as("the other block's group").isDirectory();
        after.finishBlock("block-new");
        assertThat(other.waitFor(10, TimeUnit.SECONDS)).isTrue();
    }

    private HandshakeRegistry registry() {
        return new HandshakeRegistry(LaunchConfig.defaults().withStateDir(state), Path.of("/proc"), Duration.ofHours(1));
    }
}
