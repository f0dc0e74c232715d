package dev.schedpolicy.engine.guard;

import dev.schedpolicy.engine.KernelRelease;
import dev.schedpolicy.engine.cgroup.CgroupSystem;
import dev.schedpolicy.engine.cgroup.CpuLimits;
import dev.schedpolicy.engine.cgroup.WritableCgroups;
import dev.schedpolicy.engine.jna.JnaKernel;
import dev.schedpolicy.engine.proc.ProcFs;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * The guard on the real kernel: busy loops in sessions of their own (so per-task classes could not reach them) pinned
 * beside a guarded loop on one CPU; what the kernel reports for them while the guard acts and after it ends.
 */
@EnabledOnOs(OS.LINUX)
@Tag("kernel")
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class GuardLoopITest {
    private static final String BUSY = "while :; do :; done";
    /** A loop that says what it is in its own arguments: a shell forked for `sleep` is also "sh" until it execs. */
    private static final String CHILD_LOOP = ": child-loop; " + BUSY;
    private final ProcFs proc = ProcFs.system();
    @TempDir
    Path state;
    private final List<Process> started = new ArrayList<>();
    /** Every loop a test started: closed after it, so that a failed test leaves no group for the leak tests to find. */
    private final List<GuardLoop> loops = new ArrayList<>();

    @AfterEach
    void stop() throws InterruptedException {
        loops.forEach(GuardLoop::close);
        for (Process p : started) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            p.waitFor(5, TimeUnit.SECONDS);
        }
    }

    private Process start(final String... argv) throws IOException {
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        started.add(p);
        return p;
    }

    /** A busy loop on CPU 0 in a session of its own (setsid execs in place: the PID is the loop's). */
    private Process hog() throws IOException {
        return start("taskset", "-c", "0", "setsid", "/bin/sh", "-c", BUSY);
    }

    private static void await(final BooleanSupplier condition, final long millis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
    }

    @Test
    void shouldMoveBusyCompetitorsIntoAnIdleGroupWhileTheGuardedStepWaitsAndPutThemBack() throws Exception {
        CgroupSystem cgroups = WritableCgroups.orSkip();
        Process a = hog();
        Process b = hog();
        String homeA = cgroups.cpuCgroupOf(a.pid());
        String homeB = cgroups.cpuCgroupOf(b.pid());
        // both exec'd their shell (the report names a process as it was when lowered: an emulated CPU busy with the
        // first loop kept the second a 'setsid' for a while)
        await(() -> isShell(a.pid()) && isShell(b.pid()), 10_000);
        Thread.sleep(300);
        // busy for 3 s of wall time, however fast the CPU (an emulated one in the kernel lab is 5 to 20 times slower)
        Process guarded = start("taskset", "-c", "0", "timeout", "3", "/bin/sh", "-c", BUSY);
        GuardLoop loop = new GuardLoop(proc, guarded.pid(),
                new ListedCompetitors(proc, () -> List.of(a.pid(), b.pid()), 0.05),
                List.of(new IdleGroupLowering(cgroups, proc)), GuardSettings.defaults(), Set.of()).start();
        loops.add(loop);
        await(loop::acting, 5_000);
        assertThat(loop.acting()).as("the guard acted on a step that waits beside two busy loops").isTrue();
        await(() -> !cgroups.cpuCgroupOf(b.pid()).equals(homeB), 1_000);
        String lowered = cgroups.cpuCgroupOf(a.pid());
        assertThat(lowered).isNotEqualTo(homeA).startsWith("/schedpolicy-");
        assertThat(cgroups.cpuCgroupOf(b.pid())).isEqualTo(lowered);
        Path group = cgroups.cpuDirOf(lowered);
        if (KernelRelease.atLeast(5, 15)) {
            assertThat(cgroups.limitsOf(group).idle()).as("the group is idle").isTrue();
        } else {
            assertThat(cgroups.limitsOf(group).weight()).as("no cpu.idle before 5.15: the lowest weight")
                    .hasValue(CpuLimits.MIN_WEIGHT);
        }

        assertThat(guarded.waitFor(30, TimeUnit.SECONDS)).isTrue();
        GuardReport report = loop.finish();

        assertThat(cgroups.cpuCgroupOf(a.pid())).as("put back").isEqualTo(homeA);
        assertThat(cgroups.cpuCgroupOf(b.pid())).as("put back").isEqualTo(homeB);
        assertThat(group).as("the guard's group is removed").doesNotExist();
        assertThat(report.restored()).isTrue();
        assertThat(report.actions()).isPositive();
        // how soon is a target for a quiet machine (bench/guard-cli.sh); an emulated kernel-lab CPU took 1.6 s
        assertThat(report.firstActionMillis()).isNotNegative();
        assertThat(report.lowered()).extracting(l -> l.competitor().pid()).containsExactlyInAnyOrder(a.pid(), b.pid());
        assertThat(report.waitMillis()).isPositive().isLessThanOrEqualTo(report.runnableMillis());
        assertThat(report.describe().get(1)).startsWith("lowered sh " + a.pid()).contains(" group /schedpolicy-");
    }

    @Test
    void shouldLowerNothingWhileTheGuardedStepDoesNotAskForACpu() throws Exception {
        CgroupSystem cgroups = WritableCgroups.orSkip();
        Process a = hog();
        String home = cgroups.cpuCgroupOf(a.pid());
        // guarded from when it sleeps: its start (an exec beside the loop on the same CPU) is runnable and may wait,
        // and a step that waits is one the guard should act for (an emulated CPU made that start wait 5 ms and more)
        Process guarded = start("taskset", "-c", "0", "sleep", "30");
        await(() -> proc.stat(guarded.pid()).map(s -> s.state() == 'S').orElse(false), 10_000);
        GuardLoop loop = new GuardLoop(proc, guarded.pid(), new ListedCompetitors(proc, () -> List.of(a.pid()), 0.05),
                List.of(new IdleGroupLowering(cgroups, proc)), GuardSettings.defaults(), Set.of()).start();
        loops.add(loop);
        Thread.sleep(1_500);
        GuardReport report = loop.finish();
        assertThat(report.actions()).isZero();
        assertThat(report.lowered()).isEmpty();
        assertThat(cgroups.cpuCgroupOf(a.pid())).isEqualTo(home);
        assertThat(report.describe().get(0)).contains("never over the threshold, nothing lowered");
    }

    @Test
    void shouldPutCompetitorsBackOnceTheStepStopsAskingForACpu() throws Exception {
        CgroupSystem cgroups = WritableCgroups.orSkip();
        Process a = hog();
        String home = cgroups.cpuCgroupOf(a.pid());
        Thread.sleep(300);
        // busy beside the loop for a while, then asleep for 4 s: the loop must go back before the step ends
        Process guarded = start("taskset", "-c", "0", "/bin/sh", "-c", "timeout 2 /bin/sh -c '" + BUSY + "'; sleep 4");
        GuardLoop loop = new GuardLoop(proc, guarded.pid(), new ListedCompetitors(proc, () -> List.of(a.pid()), 0.05),
                List.of(new IdleGroupLowering(cgroups, proc)), GuardSettings.defaults(), Set.of()).start();
        loops.add(loop);
        await(loop::acting, 5_000);
        assertThat(loop.acting()).isTrue();
        await(() -> !loop.acting(), 30_000);
        assertThat(guarded.isAlive()).as("put back while the step still runs, asleep").isTrue();
        assertThat(cgroups.cpuCgroupOf(a.pid())).isEqualTo(home);
        guarded.waitFor(20, TimeUnit.SECONDS);
        assertThat(loop.finish().restored()).isTrue();
    }

    @Test
    void shouldPutSchedIdleBackExactlyAlsoOnChildrenBornWhileLowered() throws Exception {
        assumeThat(JnaKernel.get().geteuid()).as("SCHED_IDLE can be left only with root's rights").isZero();
        // a batch-class nice-5 loop that starts a child loop once told to (a file appears: a fixed delay ran out before
        // the lowering on an emulated CPU, so the child was born batch), and an idle-class loop the guard must not
        // touch; on CPU 0, so that this JVM keeps CPU 1 however slow the machine
        Path go = Files.createTempFile(state, "go", "");
        Files.delete(go);
        Process parent = start("taskset", "-c", "0", "chrt", "--batch", "0", "nice", "-n", "5", "/bin/sh", "-c",
                "while [ ! -e " + go + " ]; do sleep 0.05; done; /bin/sh -c '" + CHILD_LOOP + "' & " + BUSY);
        Process alreadyIdle = start("taskset", "-c", "0", "chrt", "--idle", "0", "/bin/sh", "-c", BUSY);
        // lowered only once taskset, chrt and nice have exec'd into the shell: chrt sets the class itself, after us
        await(() -> policyAndNice(parent.pid()).equals("3 5") && isShell(parent.pid()), 30_000);
        await(() -> policyAndNice(alreadyIdle.pid()).startsWith("5 ") && isShell(alreadyIdle.pid()), 30_000);
        assertThat(policyAndNice(parent.pid())).as("started as batch, nice 5").isEqualTo("3 5");
        IdleClassLowering lowering = new IdleClassLowering(JnaKernel.get(), proc);

        Lowering.Lowered lowered = lowering.lower(new Competitor(parent.pid(), "sh"));
        assertThat(policyAndNice(parent.pid())).as("SCHED_IDLE (the kernel may keep the nice value beside it)").startsWith("5 ");
        Files.createFile(go);
        await(() -> loopChild(parent.pid()) > 0, 30_000);
        long child = loopChild(parent.pid());
        assertThat(child).as("the child loop started").isPositive();
        assertThat(policyAndNice(child)).as("born while lowered: inherits SCHED_IDLE").startsWith("5 ");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> lowering.lower(new Competitor(alreadyIdle.pid(), "sh")))
                .hasMessageContaining("no thread of a normal or batch class");

        lowered.restore();
        assertThat(policyAndNice(parent.pid())).as("batch, nice 5 again").isEqualTo("3 5");
        assertThat(policyAndNice(child)).as("the child gets its parent's class back").isEqualTo("3 5");
        assertThat(policyAndNice(alreadyIdle.pid())).as("untouched").startsWith("5 ");
    }

    private boolean isShell(final long pid) {
        return proc.stat(pid).map(s -> s.comm().equals("sh")).orElse(false);
    }

    /** The child loop (not the shell forked for the sleep before it); 0 while there is none. */
    private long loopChild(final long parent) {
        for (long pid : proc.descendants(parent).orElse(List.of())) {
            String[] argv = proc.read(proc.root().resolve(pid + "/cmdline")).orElse("").split("\0");
            if (argv.length >= 3 && argv[2].startsWith(": child-loop")) {
                return pid;
            }
        }
        return 0;
    }

    /** Fields 41 (policy) and 19 (nice) of /proc/PID/stat, as the kernel reports them. */
    private String policyAndNice(final long pid) {
        var s = proc.stat(pid).orElseThrow();
        return s.policy() + " " + s.nice();
    }
}
