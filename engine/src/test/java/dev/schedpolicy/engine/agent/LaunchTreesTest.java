package dev.schedpolicy.engine.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedpolicy.engine.buildpage.LaunchMarks;
import dev.schedpolicy.engine.proc.ProcFs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which processes belong to a launch, read from a /proc tree of the test's own. */
class LaunchTreesTest {
    /** A process of {@code ppid} with the environment {@code environ} (NUL-separated), and no children. */
    private static void process(final Path root, final long pid, final long ppid, final String environ) throws IOException {
        Path dir = Files.createDirectories(root.resolve(pid + "/task/" + pid));
        Files.writeString(dir.resolve("children"), "");
        StringBuilder stat = new StringBuilder(pid + " (sh) S " + ppid);
        for (int field = 5; field <= 52; field++) {
            stat.append(" 0");
        }
        Files.writeString(root.resolve(pid + "/stat"), stat + "\n");
        Files.writeString(root.resolve(pid + "/environ"), environ);
    }

    @Test
    void shouldFindAReparentedScriptWhoseEnvironmentWasEmptyWhenFirstSeen(@TempDir final Path root) throws Exception {
        process(root, 100, 1, "PATH=/bin\0" + LaunchMarks.MARKER + "=hs-1\0");
        // a shell step's script in exec when the scan first sees it: its environment reads empty for that moment
        process(root, 200, 1, "");
        LaunchTrees trees = new LaunchTrees(new ProcFs(root));
        trees.add("hs-1", 100);
        assertThat(trees.processes("hs-1")).containsExactly(100L);

        Files.writeString(root.resolve("200/environ"), "HOME=/root\0" + LaunchMarks.MARKER + "=hs-1\0");
        Thread.sleep(TimeUnit.NANOSECONDS.toMillis(LaunchTrees.MARK_SCAN_NANOS) + 50);
        assertThat(trees.processes("hs-1")).as("read again once it says something").containsExactlyInAnyOrder(100L, 200L);
    }

    @Test
    void shouldTellAnUnmarkedProcessOnceAndAKernelThreadByItsParent(@TempDir final Path root) throws Exception {
        process(root, 100, 1, LaunchMarks.MARKER + "=hs-1\0");
        process(root, 300, 1, "PATH=/bin\0");
        process(root, 3, 2, "");
        LaunchTrees trees = new LaunchTrees(new ProcFs(root));
        trees.add("hs-1", 100);
        assertThat(trees.processes("hs-1")).containsExactly(100L);
        // told apart for good: a later change of the file is not read (each process's environment is read once)
        Files.writeString(root.resolve("300/environ"), LaunchMarks.MARKER + "=hs-1\0");
        Files.writeString(root.resolve("3/environ"), LaunchMarks.MARKER + "=hs-1\0");
        Thread.sleep(TimeUnit.NANOSECONDS.toMillis(LaunchTrees.MARK_SCAN_NANOS) + 50);
        assertThat(trees.processes("hs-1")).containsExactly(100L);
    }

    @Test
    void shouldCountAZombieAsEndedSoThatItsLaunchEnds(@TempDir final Path root) throws Exception {
        process(root, 100, 1, LaunchMarks.MARKER + "=hs-1\0");
        process(root, 200, 1, LaunchMarks.MARKER + "=hs-1\0");
        LaunchTrees trees = new LaunchTrees(new ProcFs(root));
        trees.add("hs-1", 100);
        assertThat(trees.processes("hs-1")).containsExactlyInAnyOrder(100L, 200L);
        // both ended, and nothing reaps them (an agent that is its container's PID 1): the kernel shows them as zombies
        for (long pid : new long[] {100, 200}) {
            Path stat = root.resolve(pid + "/stat");
            Files.writeString(stat, Files.readString(stat).replace(" (sh) S ", " (sh) Z "));
            Files.writeString(root.resolve(pid + "/environ"), "");
        }
        Thread.sleep(TimeUnit.NANOSECONDS.toMillis(LaunchTrees.MARK_SCAN_NANOS) + 50);
        assertThat(trees.processes("hs-1")).as("a launch of zombies has ended").isEmpty();
    }

    @Test
    void shouldNotEndALaunchWhileAProcessThatMayBeItsScriptIsStillInExec(@TempDir final Path root) throws Exception {
        LaunchTrees trees = new LaunchTrees(new ProcFs(root), TimeUnit.SECONDS.toNanos(1));
        process(root, 100, 1, LaunchMarks.MARKER + "=hs-1\0");
        trees.add("hs-1", 100);
        assertThat(trees.ended("hs-1")).isFalse();
        // the launched shell exits at once; its script, re-parented, is in exec: no environment to read yet
        delete(root.resolve("100"));
        process(root, 200, 1, "");
        Thread.sleep(TimeUnit.NANOSECONDS.toMillis(LaunchTrees.MARK_SCAN_NANOS) + 50);
        assertThat(trees.processes("hs-1")).isEmpty();
        assertThat(trees.ended("hs-1")).as("not ended while the process in exec may be its script").isFalse();

        Files.writeString(root.resolve("200/environ"), LaunchMarks.MARKER + "=hs-1\0");
        Thread.sleep(TimeUnit.NANOSECONDS.toMillis(LaunchTrees.MARK_SCAN_NANOS) + 50);
        assertThat(trees.processes("hs-1")).as("it was").containsExactly(200L);
        delete(root.resolve("200"));
        // a process that never shows an environment (started with none) holds an end up for the grace only
        process(root, 300, 1, "");
        Thread.sleep(TimeUnit.NANOSECONDS.toMillis(LaunchTrees.MARK_SCAN_NANOS) + 50);
        assertThat(trees.ended("hs-1")).isFalse();
        Thread.sleep(1_100);
        assertThat(trees.ended("hs-1")).isTrue();
    }

    /**
     * While steps start back to back some process is always in exec (undecided): an ended launch is held only by one
     * that was there when a prune first found it empty (it may be its script), not by those that came after. Every
     * ended launch of a busy agent was kept, and each cost a scan of /proc at every prune, under the lock every
     * release waits for (2,000 measured steps in Jenkins: a stall every 5 s, up to 0.9 s by the end).
     */
    @Test
    void shouldForgetAnEndedLaunchThatOnlyLaterUndecidedProcessesCouldHold(@TempDir final Path root) throws Exception {
        LaunchTrees trees = new LaunchTrees(new ProcFs(root), TimeUnit.SECONDS.toNanos(60));
        process(root, 100, 1, LaunchMarks.MARKER + "=hs-1\0");
        trees.add("hs-1", 100);
        delete(root.resolve("100"));
        process(root, 200, 1, "");
        trees.prune();
        assertThat(trees.contains("hs-1")).as("the process in exec may be its script").isTrue();
        trees.prune();
        assertThat(trees.contains("hs-1")).as("still may be").isTrue();

        Files.writeString(root.resolve("200/environ"), "PATH=/bin\0");
        process(root, 300, 1, "");
        trees.prune();
        assertThat(trees.contains("hs-1")).as("the next step's process in exec came after it ended").isFalse();
        assertThat(trees.size()).isZero();
    }

    @Test
    void shouldKeepAtMostMaxLaunchesForgettingTheOldest(@TempDir final Path root) throws Exception {
        LaunchTrees trees = new LaunchTrees(new ProcFs(root));
        for (int i = 0; i <= LaunchTrees.MAX_LAUNCHES; i++) {
            trees.add("hs-" + i, 100_000 + i);
        }
        assertThat(trees.size()).isEqualTo(LaunchTrees.MAX_LAUNCHES);
        assertThat(trees.contains("hs-0")).isFalse();
        assertThat(trees.contains("hs-" + LaunchTrees.MAX_LAUNCHES)).isTrue();
    }

    @Test
    void shouldNeverTakeAProcessThatGotAnEndedLaunchedPidForTheLaunch(@TempDir final Path root) throws Exception {
        process(root, 100, 1, LaunchMarks.MARKER + "=hs-1\0");
        process(root, 200, 1, LaunchMarks.MARKER + "=hs-1\0");
        LaunchTrees trees = new LaunchTrees(new ProcFs(root));
        trees.add("hs-1", 100);
        assertThat(trees.processes("hs-1")).containsExactlyInAnyOrder(100L, 200L);
        // the launched shell exits (its script 200 runs on), and the kernel gives its PID to a process of nobody's
        delete(root.resolve("100"));
        Thread.sleep(TimeUnit.NANOSECONDS.toMillis(LaunchTrees.MARK_SCAN_NANOS) + 50);
        assertThat(trees.processes("hs-1")).containsExactly(200L);
        process(root, 100, 1, "PATH=/bin\0");
        Thread.sleep(TimeUnit.NANOSECONDS.toMillis(LaunchTrees.MARK_SCAN_NANOS) + 50);
        assertThat(trees.processes("hs-1")).as("a guard would lower it").containsExactly(200L);
    }

    private static void delete(final Path dir) throws IOException {
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
