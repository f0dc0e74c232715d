package dev.schedpolicy.engine.agent;

import dev.schedpolicy.engine.cgroup.CgroupSystem;
import dev.schedpolicy.engine.cgroup.WritableCgroups;
import dev.schedpolicy.engine.guard.GuardHomes;
import dev.schedpolicy.engine.launch.LaunchConfig;
import dev.schedpolicy.engine.proc.ProcFs;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An agent killed while its guard had another build's process lowered: the guard's group and its written-down homes
 * are what is left (made here as a killed guard leaves them: a group named for a maker that is gone, the process in
 * it, its home in the state directory). The next agent start sends the process home and removes the group.
 */
@EnabledOnOs(OS.LINUX)
@Tag("kernel")
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class GuardHomesITest {
    @TempDir
    Path state;

    private Process loop;
    private Path group;

    @AfterEach
    void tearDown() throws Exception {
        if (loop != null) {
            loop.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
        }
        // the kernel frees a group a moment after its last process left: removal is retried for up to 2 s
        for (int i = 0; group != null && Files.isDirectory(group); i++) {
            try {
                Files.delete(group);
            } catch (java.io.IOException busy) {
                if (i >= 100) {
                    throw busy;
                }
                Thread.sleep(20);
            }
        }
    }

    @Test
    void shouldSendHomeWhatAKilledGuardLeftLoweredWhenTheAgentStartsAgain() throws Exception {
        CgroupSystem cgroups = WritableCgroups.orSkip();
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        loop = new ProcessBuilder("sh", "-c", "while :; do sleep 0.1; done").start();
        String home = cgroups.cpuCgroupOf(loop.pid());
        // as the killed guard left it: its group at the top of the hierarchy, named for its (gone) JVM, the process in it
        String lowered = "/schedpolicy-" + gone.pid() + "-0123456789ab-0";
        group = cgroups.cpuDirOf(lowered);
        Files.createDirectory(group);
        Path homes = Files.createDirectories(state.resolve("guard-homes"));
        long started = loop.info().startInstant().orElseThrow().toEpochMilli();
        Files.writeString(homes.resolve("schedpolicy-" + gone.pid() + "-0123456789ab-0.homes"), "group\t" + lowered + "\n"
                + loop.pid() + "\t" + started + "\t" + home + "\t" + cgroups.homeOf(loop.pid()).cpuacctPath().orElse("") + "\n");
        Files.writeString(group.resolve("cgroup.procs"), Long.toString(loop.pid()));
        assertThat(cgroups.cpuCgroupOf(loop.pid())).isEqualTo(lowered);

        try (HandshakeRegistry registry = new HandshakeRegistry(LaunchConfig.defaults().withStateDir(state), Path.of("/proc"),
                Duration.ofHours(1))) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            // the group goes first and its homes file a moment after (the registry's timer does both): wait for both,
            // or a slow machine (an emulated guest of the kernel lab) finds the file between the two
            while ((Files.isDirectory(group) || Files.exists(homes)) && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(cgroups.cpuCgroupOf(loop.pid())).as("sent home at the agent's start").isEqualTo(home);
            assertThat(group).as("the killed guard's group is removed").doesNotExist();
            assertThat(homes).as("nothing of it stays in the state directory").doesNotExist();
        }
    }

    /**
     * An inbound agent whose connection drops restarts its JVM in place (remoting's UnixSlaveRestarter execs it: same
     * PID): the guard of the JVM before is gone though its PID lives. Its group is named for this very PID, and its homes
     * name the JVM that wrote them, which is not this one: the next start sends the process home and removes the group.
     */
    @Test
    void shouldSendHomeWhatTheGuardOfAnEarlierJvmOfTheSamePidLeftLowered() throws Exception {
        CgroupSystem cgroups = WritableCgroups.orSkip();
        loop = new ProcessBuilder("sh", "-c", "while :; do sleep 0.1; done").start();
        String home = cgroups.cpuCgroupOf(loop.pid());
        String lowered = "/schedpolicy-" + ProcessHandle.current().pid() + "-0123456789ab-1";
        Path homes = leftLowered(cgroups, lowered, "maker\t" + ProcessHandle.current().pid() + "\tan-earlier-jvm\n");

        try (HandshakeRegistry registry = new HandshakeRegistry(LaunchConfig.defaults().withStateDir(state), Path.of("/proc"),
                Duration.ofHours(1))) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            // the group goes first and its homes file a moment after (the registry's timer does both): wait for both,
            // or a slow machine (an emulated guest of the kernel lab) finds the file between the two
            while ((Files.isDirectory(group) || Files.exists(homes)) && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(cgroups.cpuCgroupOf(loop.pid())).as("sent home at the next JVM's start").isEqualTo(home);
            assertThat(group).as("the earlier JVM's guard group is removed").doesNotExist();
            assertThat(homes).as("nothing of it stays in the state directory").doesNotExist();
        }
    }

    /** A group of this JVM's own guard (its homes name this JVM) is a running guard's: left as it is. */
    @Test
    void shouldLeaveTheGroupOfAGuardOfThisJvmAlone() throws Exception {
        CgroupSystem cgroups = WritableCgroups.orSkip();
        loop = new ProcessBuilder("sh", "-c", "while :; do sleep 0.1; done").start();
        String home = cgroups.cpuCgroupOf(loop.pid());
        String lowered = "/schedpolicy-" + ProcessHandle.current().pid() + "-0123456789ab-2";
        Path homes = leftLowered(cgroups, lowered, "maker\t" + ProcessHandle.current().pid() + "\t" + dev.schedpolicy.engine.launch.ThisJvm.token() + "\n");

        assertThat(GuardHomes.in(LaunchConfig.defaults().withStateDir(state)).restoreStale(cgroups, ProcFs.system())).isEmpty();
        assertThat(cgroups.cpuCgroupOf(loop.pid())).as("still in the running guard's group").isEqualTo(lowered);
        assertThat(homes).as("its homes kept").isDirectory();
        Files.writeString(cgroups.cpuDirOf(home).resolve("cgroup.procs"), Long.toString(loop.pid()));
    }

    /** The loop moved into the group {@code lowered}, its home written down as a guard writes it, with {@code maker}. */
    private Path leftLowered(final CgroupSystem cgroups, final String lowered, final String maker) throws Exception {
        String home = cgroups.cpuCgroupOf(loop.pid());
        group = cgroups.cpuDirOf(lowered);
        Files.createDirectory(group);
        Path homes = Files.createDirectories(state.resolve("guard-homes"));
        long started = loop.info().startInstant().orElseThrow().toEpochMilli();
        Files.writeString(homes.resolve(Path.of(lowered).getFileName() + ".homes"), "group\t" + lowered + "\n" + maker
                + loop.pid() + "\t" + started + "\t" + home + "\t" + cgroups.homeOf(loop.pid()).cpuacctPath().orElse("") + "\n");
        Files.writeString(group.resolve("cgroup.procs"), Long.toString(loop.pid()));
        assertThat(cgroups.cpuCgroupOf(loop.pid())).isEqualTo(lowered);
        return homes;
    }
}
