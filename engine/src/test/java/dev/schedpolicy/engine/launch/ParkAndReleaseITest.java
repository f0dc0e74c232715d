package dev.schedpolicy.engine.launch;

import dev.schedpolicy.engine.policy.Policy;
import dev.schedpolicy.engine.proc.TaskStat;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@EnabledOnOs(OS.LINUX)
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
@Tag("kernel")
class ParkAndReleaseITest {
    @TempDir
    Path state;

    private LaunchConfig config() {
        return LaunchConfig.defaults().withStateDir(state);
    }

    private static Process startPrefixed(final Handshake h, final String... command) throws Exception {
        List<String> argv = new ArrayList<>(h.commandPrefix());
        argv.addAll(List.of(command));
        return new ProcessBuilder(argv).start();
    }

    @Test
    void shouldRunTheCommandOnlyAfterReleaseUnderThePolicy() throws Exception {
        Process p;
        PolicedLaunch launch;
        try (Handshake h = ParkAndRelease.prepare(Policy.parse("batch+nice19+io-be7"), config())) {
            assertThat(String.join(" ", h.commandPrefix())).doesNotContain("$");
            p = startPrefixed(h, "cat", "/proc/self/stat");
            launch = h.release(Duration.ofSeconds(10));
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
        assertThat(p.waitFor()).isZero();
        TaskStat stat = TaskStat.parse(out.trim());
        assertThat(stat.pid()).isEqualTo(launch.pid());
        assertThat(stat.policy()).isEqualTo(3);
        assertThat(stat.nice()).isEqualTo(19);
        assertThat(launch.applied().readFrom()).isEqualTo("parked child");
        assertThat(launch.applied().io()).isEqualTo("be:7");
        assertThat(handshakeDirs()).isEmpty();
    }

    @Test
    void shouldNeverRunTheCommandWhenAborted() throws Exception {
        Process p;
        try (Handshake h = ParkAndRelease.prepare(Policy.parse("idle"), config())) {
            p = startPrefixed(h, "sh", "-c", "echo ran");
            h.abort("test says no");
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).isEqualTo(125);
        assertThat(out).isEmpty();
        // the shim either heard the reason or, starting after the abort, found the handshake gone
        assertThat(err).containsAnyOf("test says no", "handshake is gone").contains("not running the command");
    }

    @Test
    void shouldStartTheCommandWithSigpipeAtItsDefault() throws Exception {
        // the shim ignores SIGPIPE while it talks to the engine; an ignored signal would survive the exec
        Process p;
        try (Handshake h = ParkAndRelease.prepare(Policy.parse("batch"), config())) {
            p = startPrefixed(h, "grep", "SigIgn", "/proc/self/status");
            h.release(Duration.ofSeconds(10));
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertThat(p.waitFor()).isZero();
        long ignored = Long.parseLong(out.substring(out.indexOf('\t') + 1).trim(), 16);
        assertThat(ignored & (1L << (13 - 1))).as("SIGPIPE (13) ignored in %s", out).isZero();
    }

    @Test
    void shouldTimeOutWhenNothingWasLaunched() {
        Handshake h = ParkAndRelease.prepare(Policy.parse("batch"), config());
        assertThatThrownBy(() -> h.release(Duration.ofMillis(200))).isInstanceOf(PolicyApplyException.class)
                .hasMessageContaining("did not reach the policy shim within 200 ms");
        assertThat(handshakeDirs()).isEmpty();
    }

    @Test
    void shouldPassExitStatusAndMissingCommandThrough() throws Exception {
        Process p;
        try (Handshake h = ParkAndRelease.prepare(Policy.parse("batch"), config())) {
            p = startPrefixed(h, "/no/such/binary");
            h.release(Duration.ofSeconds(10));
        }
        assertThat(p.waitFor()).isEqualTo(127);
        try (Handshake h = ParkAndRelease.prepare(Policy.parse("batch"), config())) {
            p = startPrefixed(h, "sh", "-c", "exit 3");
            h.release(Duration.ofSeconds(10));
        }
        assertThat(p.waitFor()).isEqualTo(3);
    }

    @Test
    void shouldExitWhenTheEngineGoesAwayWithoutAnswering() throws Exception {
        Handshake h = ParkAndRelease.prepare(Policy.parse("batch"), config());
        Process p = startPrefixed(h, "sh", "-c", "echo ran");
        // simulates the engine dying: its FIFO handles close without an answer
        h.close();
        assertThat(p.waitFor(5, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isEqualTo(125);
        assertThat(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isEmpty();
    }

    @Test
    void shouldNeverLeaveAFileWhenShimsRaceAnImmediateAbort() throws Exception {
        // a late shim must find the handshake gone, not create a regular "pid" file in it
        for (int i = 0; i < 100; i++) {
            Process p;
            try (Handshake h = ParkAndRelease.prepare(Policy.parse("batch"), config())) {
                p = startPrefixed(h, "sh", "-c", "echo ran");
            }
            assertThat(p.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).isEqualTo(125);
        }
        try (Stream<Path> s = Files.list(state)) {
            assertThat(s.map(x -> x.getFileName().toString())).allMatch(n -> n.startsWith("park-shim-"));
        }
    }

    private List<Path> handshakeDirs() {
        try (Stream<Path> s = Files.list(state)) {
            return s.filter(x -> x.getFileName().toString().startsWith("hs-")).toList();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void shouldSweepTheLongLivedDirectoriesOfADeadJvmAndKeepThisOnes() throws Exception {
        java.nio.file.Path mine = LaunchDirs.createLongLived(config());
        java.nio.file.Path dead = java.nio.file.Files.createDirectories(mine.getParent().resolve(ParkAndRelease.LONG_LIVED_PREFIX
                + Integer.MAX_VALUE + "-1"));
        ParkAndRelease.sweepStale(mine.getParent());
        assertThat(dead).doesNotExist();
        assertThat(mine).isDirectory();
        LaunchDirs.remove(mine);
    }

    /**
     * An inbound agent whose connection drops execs itself under the same PID: what the JVM before the exec made is
     * stale though its PID lives (found by the live suite: a restarted agent's desk directory outlived the agent).
     */
    @Test
    void shouldSweepTheLongLivedDirectoriesOfAnEarlierJvmOfThisPid() throws Exception {
        java.nio.file.Path mine = LaunchDirs.createLongLived(config());
        java.nio.file.Path earlier = java.nio.file.Files.createDirectories(mine.getParent().resolve(ParkAndRelease.LONG_LIVED_PREFIX
                + ProcessHandle.current().pid() + "-" + Integer.MAX_VALUE));
        java.nio.file.Files.writeString(earlier.resolve(LaunchDirs.OWNER), "another-jvm\n");
        ParkAndRelease.sweepStale(mine.getParent());
        assertThat(earlier).doesNotExist();
        assertThat(mine).isDirectory();
        LaunchDirs.remove(mine);
    }

    /** An agent that reconnected loads the engine again: its sequence starts over while the first copy's directories live. */
    @Test
    void shouldTakeTheNextFreeNameWhenAnEarlierCopyOfTheEngineHoldsOne() throws Exception {
        java.nio.file.Path first = LaunchDirs.createLongLived(config());
        String name = first.getFileName().toString();
        long n = Long.parseLong(name.substring(name.lastIndexOf('-') + 1));
        String stem = name.substring(0, name.lastIndexOf('-') + 1);
        java.nio.file.Path taken1 = java.nio.file.Files.createDirectory(first.getParent().resolve(stem + (n + 1)));
        java.nio.file.Path taken2 = java.nio.file.Files.createDirectory(first.getParent().resolve(stem + (n + 2)));
        java.nio.file.Path next = LaunchDirs.createLongLived(config());
        assertThat(next.getFileName().toString()).isEqualTo(stem + (n + 3));
        for (java.nio.file.Path p : List.of(first, taken1, taken2, next)) {
            LaunchDirs.remove(p);
        }
    }
}
