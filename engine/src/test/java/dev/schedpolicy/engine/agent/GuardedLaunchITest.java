package dev.schedpolicy.engine.agent;

import dev.schedpolicy.engine.buildpage.LaunchMarks;
import dev.schedpolicy.engine.cgroup.CgroupSystem;
import dev.schedpolicy.engine.cgroup.WritableCgroups;
import dev.schedpolicy.engine.launch.LaunchConfig;
import dev.schedpolicy.engine.proc.ProcFs;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A guarded launch on a real kernel, made as the plugin makes it (prepare, someone else starts, release): while it waits
 * beside two busy launches of the same registry, those are lowered, and only those; a busy process the registry did
 * not launch stays as it was; all is back once the guarded launch ends, and its record says what the guard did.
 */
@EnabledOnOs(OS.LINUX)
@Tag("kernel")
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class GuardedLaunchITest {
    private static final String BUSY = "while :; do :; done";

    @TempDir
    Path state;

    private final ProcFs proc = ProcFs.system();
    private final List<Process> started = new ArrayList<>();
    private final List<String> orphanTags = new ArrayList<>();
    private HandshakeRegistry registry;

    @BeforeEach
    void setUp() {
        registry = new HandshakeRegistry(LaunchConfig.defaults().withStateDir(state), Path.of("/proc"), Duration.ofHours(1));
    }

    @AfterEach
    void tearDown() throws InterruptedException {
        registry.close();
        // every process of the loops, also the shell behind a `timeout` that a SIGKILL of the timeout leaves running
        orphanTags.forEach(tag -> tagged(tag).forEach(ProcessHandle::destroyForcibly));
        for (Process p : started) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            p.waitFor(5, TimeUnit.SECONDS);
        }
    }

    /** A launch through the registry, as Jenkins makes one: the command carries the launch's marker in its environment. */
    private Process launch(final PreparedLaunch prepared, final String script) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(prepared.prefix(List.of("taskset", "-c", "0", "/bin/sh", "-c", script)))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put(LaunchMarks.MARKER, prepared.id());
        Process p = pb.start();
        started.add(p);
        registry.release(prepared.id(), Duration.ofSeconds(10));
        return p;
    }

    private PreparedLaunch prepare(final String block) {
        return registry.prepare(LaunchRequest.of(block, "normal").pendingFor(Duration.ofSeconds(30)));
    }

    private static void await(final BooleanSupplier condition, final long millis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
    }

    /**
     * A busy loop a shell step leaves behind, named by {@code tag} (one per test: a loop a failed test left must not be
     * taken for the next test's): its launch's shell exits at once, the loop is re-parented away.
     */
    private static String orphanLoop(final String tag) {
        return "/bin/sh -c ': " + tag + "; " + BUSY + "'";
    }

    /** The shell running the loop {@code tag} (not a `timeout` in front of it, whose arguments name it too). */
    private long orphanOf(final Process shell, final String tag) throws InterruptedException {
        assertThat(shell.waitFor(10, TimeUnit.SECONDS)).isTrue();
        orphanTags.add(tag);
        long[] found = new long[1];
        await(() -> {
            found[0] = tagged(tag).filter(h -> h.info().arguments().map(a -> a.length > 1 && a[0].equals("-c"))
                    .orElse(false)).mapToLong(ProcessHandle::pid).findFirst().orElse(0);
            return found[0] != 0;
        }, 30_000);
        assertThat(found[0]).as("the background loop runs").isPositive();
        return found[0];
    }

    private static java.util.stream.Stream<ProcessHandle> tagged(final String tag) {
        return ProcessHandle.allProcesses().filter(h -> h.info().arguments().map(a -> String.join(" ", a)
                .contains(": " + tag + ";")).orElse(false));
    }

    private String classAndNice(final long pid) {
        var s = proc.stat(pid).orElseThrow();
        return s.policy() + " " + s.nice();
    }

    @Test
    void shouldLowerOnlyTheRegistrysOtherLaunchesWhileAGuardedLaunchWaitsAndPutThemBackWhenItEnds() throws Exception {
        CgroupSystem cgroups = WritableCgroups.orSkip();
        Process compile = launch(prepare("compile-block"), BUSY);
        // as a Jenkins shell step does: the launched shell exits, its loop runs on with the launch's marker only
        long background = orphanOf(launch(prepare("compile-block"), "(exec " + orphanLoop("compile-loop") + ") &"),
                "compile-loop");
        Process outsider = new ProcessBuilder("taskset", "-c", "0", "/bin/sh", "-c", BUSY)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        started.add(outsider);
        String homeCompile = cgroups.cpuCgroupOf(compile.pid());
        String homeBackground = cgroups.cpuCgroupOf(background);
        String homeOutsider = cgroups.cpuCgroupOf(outsider.pid());
        String outsiderClass = classAndNice(outsider.pid());
        Thread.sleep(300);

        PreparedLaunch tests = prepare("tests-block");
        assertThat(registry.guard(tests.id(), "tests #7", "tests")).isEmpty();
        // busy on the CPU the others share until the test ends it: an emulated CPU (the kernel lab) takes seconds to get here
        Process guarded = launch(tests, "timeout 120 /bin/sh -c '" + BUSY + "'");
        String homeGuarded = cgroups.cpuCgroupOf(guarded.pid());

        await(() -> !cgroups.cpuCgroupOf(compile.pid()).equals(homeCompile)
                && !cgroups.cpuCgroupOf(background).equals(homeBackground), 30_000);
        assertThat(cgroups.cpuCgroupOf(compile.pid())).as("the registry's launch is lowered").startsWith("/schedpolicy-");
        assertThat(cgroups.cpuCgroupOf(background)).as("so is the re-parented loop of another launch")
                .isEqualTo(cgroups.cpuCgroupOf(compile.pid()));
        assertThat(cgroups.cpuCgroupOf(outsider.pid())).as("a process the registry did not launch is not touched")
                .isEqualTo(homeOutsider);
        assertThat(classAndNice(outsider.pid())).isEqualTo(outsiderClass);
        assertThat(cgroups.cpuCgroupOf(guarded.pid())).as("the guarded launch keeps its place").isEqualTo(homeGuarded);

        guarded.descendants().forEach(ProcessHandle::destroy);
        guarded.destroy();
        assertThat(guarded.waitFor(30, TimeUnit.SECONDS)).isTrue();
        // the guard ends with the launch's last process, not at the block's end (how soon is bench/guard-cli.sh's to say:
        // a bound here would fail on an emulated CPU)
        await(() -> cgroups.cpuCgroupOf(compile.pid()).equals(homeCompile)
                && cgroups.cpuCgroupOf(background).equals(homeBackground), 20_000);
        assertThat(cgroups.cpuCgroupOf(compile.pid())).as("put back").isEqualTo(homeCompile);
        assertThat(cgroups.cpuCgroupOf(background)).as("put back").isEqualTo(homeBackground);
        assertThat(cgroups.cpuCgroupOf(outsider.pid())).isEqualTo(homeOutsider);

        List<GuardRecord> records = registry.collectGuards(List.of(tests.id()), Duration.ofSeconds(30));
        assertThat(records).hasSize(1);
        GuardRecord record = records.get(0);
        assertThat(record.restored()).isTrue();
        assertThat(record.actions()).isPositive();
        assertThat(record.loweredPids()).containsExactlyInAnyOrder(compile.pid(), background);
        assertThat(record.launchOf(compile.pid())).isNotEmpty().isNotEqualTo(tests.id());
        assertThat(GuardSummary.of(records).line("tests"::equals)).startsWith("guard: waited ")
                .contains("lowered 2 launches, ").contains(" in all: 2 other launches on this agent").endsWith("all put back");
        assertThat(registry.collectGuards(List.of(tests.id()), Duration.ZERO)).as("handed out once").isEmpty();
    }

    @Test
    void shouldKeepALaunchGroupItsGuardEmptiedSoThatItsProcessesGoBack() throws Exception {
        CgroupSystem cgroups = WritableCgroups.orSkip();
        // a reaper of empty launch groups every 200 ms: a lowered launch's own group looks empty meanwhile
        registry.close();
        registry = new HandshakeRegistry(LaunchConfig.defaults().withStateDir(state), Path.of("/proc"), Duration.ofMillis(200));
        PreparedLaunch weighted = registry.prepare(LaunchRequest.of("compile-block", "weight50").pendingFor(Duration.ofSeconds(30)));
        Process compile = launch(weighted, BUSY);
        String home = cgroups.cpuCgroupOf(compile.pid());
        assertThat(home).as("the launch has a group of its own").startsWith("/schedpolicy-");
        Thread.sleep(300);

        PreparedLaunch tests = prepare("tests-block");
        assertThat(registry.guard(tests.id(), "tests #8", "tests")).isEmpty();
        Process guarded = launch(tests, "timeout 120 /bin/sh -c '" + BUSY + "'");
        await(() -> !cgroups.cpuCgroupOf(compile.pid()).equals(home), 30_000);
        assertThat(cgroups.cpuCgroupOf(compile.pid())).as("lowered").isNotEqualTo(home);
        Thread.sleep(1_000); // five reaper rounds while the launch's own group is empty

        guarded.descendants().forEach(ProcessHandle::destroy);
        guarded.destroy();
        assertThat(guarded.waitFor(30, TimeUnit.SECONDS)).isTrue();
        await(() -> cgroups.cpuCgroupOf(compile.pid()).equals(home), 20_000);
        assertThat(cgroups.cpuCgroupOf(compile.pid())).as("back in its own group, which was kept").isEqualTo(home);
        List<GuardRecord> records = registry.collectGuards(List.of(tests.id()), Duration.ofSeconds(30));
        assertThat(records).hasSize(1);
        assertThat(records.get(0).restored()).as(String.join("; ", records.get(0).notes())).isTrue();
    }

    @Test
    void shouldGuardAShellStepWhoseScriptRunsOnAfterItsLaunchedShellExits() throws Exception {
        CgroupSystem cgroups = WritableCgroups.orSkip();
        Process compile = launch(prepare("compile-block"), BUSY);
        String home = cgroups.cpuCgroupOf(compile.pid());
        Thread.sleep(300);
        PreparedLaunch tests = prepare("tests-block");
        registry.guard(tests.id(), "tests #8", "tests");
        // as durable-task's sh: the launched shell returns at once, the script runs on, re-parented, until the test ends it
        Process shell = launch(tests, "(exec timeout 120 " + orphanLoop("script-loop") + ") &");
        long script = orphanOf(shell, "script-loop");

        await(() -> !cgroups.cpuCgroupOf(compile.pid()).equals(home), 30_000);
        assertThat(cgroups.cpuCgroupOf(compile.pid())).as("the guard outlived the launched shell and acted for its script")
                .startsWith("/schedpolicy-");
        tagged("script-loop").forEach(ProcessHandle::destroy);
        await(() -> ProcessHandle.of(script).isEmpty(), 30_000);
        await(() -> cgroups.cpuCgroupOf(compile.pid()).equals(home), 20_000);
        assertThat(cgroups.cpuCgroupOf(compile.pid())).as("put back once the script ended").isEqualTo(home);
        List<GuardRecord> records = registry.collectGuards(List.of(tests.id()), Duration.ofSeconds(30));
        assertThat(records).hasSize(1);
        assertThat(records.get(0).loweredPids()).containsExactly(compile.pid());
    }
}
