package dev.schedpolicy.engine.cgroup;

import dev.schedpolicy.engine.KernelRelease;
import dev.schedpolicy.engine.jna.JnaKernel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Against a real cgroup v2 kernel (the kernel lab's guests; the development machine is hybrid with no controller on
 * v2, so it skips these): what the engine writes is what the kernel then reports in its files, the limits act
 * on real busy loops (shares of CPU time from the kernel's own cpu.stat, never wall-clock speed), and the
 * kernel's delegation rules come back as our words.
 */
@EnabledOnOs(OS.LINUX)
@Tag("kernel")
class CpuCgroupV2ITest {
    private static final String LOOP = "while :; do :; done";

    private CgroupSystem system;
    private Path root;
    private final List<Process> started = new ArrayList<>();
    private final List<CpuCgroup> groups = new ArrayList<>();

    @BeforeEach
    void realV2CpuController() {
        system = CgroupSystem.detect();
        assumeTrue(system.cpuHierarchy().map(h -> h.version() == CgroupVersion.V2).orElse(false),
                "needs the cpu controller on cgroup v2 (mode here: " + system.mode() + "); .ci/kernel-lab-suite.sh"
                        + " runs this in cgroup v2 guests");
        ParentCheck check = system.checkParent(system.ownCpuCgroupDir());
        assumeTrue(check.usable(), "needs a writable cpu cgroup (the lab runs as root): " + check.detail());
        root = system.ownCpuCgroupDir();
    }

    @AfterEach
    void cleanUp() {
        started.forEach(Process::destroyForcibly);
        for (int i = groups.size() - 1; i >= 0; i--) {
            groups.get(i).killAll();
            groups.get(i).close();
        }
        if (root != null) {
            String ours = GroupNames.PREFIX + ProcessHandle.current().pid() + "-";
            assertThat(new CgroupFiles().childDirs(root)).as("groups of ours left behind")
                    .noneMatch(d -> d.getFileName().toString().startsWith(ours));
        }
    }

    @Test
    void shouldWriteCpuMaxAndWeightThatTheKernelReadsBack() throws IOException {
        CpuCgroup group = child(root, CpuLimits.none().withQuotaPercent(25).withWeight(50));
        assertThat(read(group, "cpu.max")).isEqualTo("25000 100000");
        assertThat(read(group, "cpu.weight")).isEqualTo("50");
        assertThat(group.readLimits()).isEqualTo(CpuLimits.none().withQuotaPercent(25).withWeight(50));
        assertThat(words(root.resolve("cgroup.subtree_control"))).contains("cpu");
    }

    /** cpu.idle arrived in 5.15: where it exists it must work, where it does not the refusal must say why. */
    @Test
    void shouldMakeAGroupIdleOrRefuseWithTheKernelVersionItNeeds() throws IOException {
        CpuCgroup probe = child(root, CpuLimits.none());
        if (Files.exists(probe.path().resolve("cpu.idle"))) {
            probe.apply(CpuLimits.none().withIdle(true));
            assertThat(read(probe, "cpu.idle")).isEqualTo("1");
            // the idle weight (3 of 1024) in cgroup units: read back as 0 up to 6.x, 1 on 7.3
            assertThat(Integer.parseInt(read(probe, "cpu.weight"))).as("an idle group's weight as the kernel reports it")
                    .isBetween(0, 1);
            assertThat(probe.readLimits().idle()).isTrue();
            assertThat(probe.readLimits().weight()).isEmpty();
        } else {
            assertThatThrownBy(() -> system.createChild(root, CpuLimits.none().withIdle(true)))
                    .isInstanceOf(CgroupUnsupportedException.class)
                    .hasMessageContaining("cpu.idle needs Linux 5.15 or later");
        }
    }

    @Test
    void shouldHoldABusyLoopToItsCpuMaxQuota() throws Exception {
        CpuCgroup group = child(root, CpuLimits.none().withQuotaPercent(25));
        Process loop = loop(group);
        CgroupUsage before = group.usage();
        long start = System.nanoTime();
        Thread.sleep(3000);
        CgroupUsage after = group.usage();
        double percent = percentOfACpu(before, after, start);
        System.out.printf("cpu.max 25000 100000: %.1f%% of a CPU, throttled %d of %d periods%n", percent,
                after.nrThrottled(), after.nrPeriods());
        // a hard ceiling: 3 s hold at most 31 periods of 25 ms
        assertThat(percent).isLessThanOrEqualTo(27.5);
        assertThat(after.nrThrottled() - before.nrThrottled()).isPositive();
        assertThat(loop.isAlive()).isTrue();
    }

    @Test
    void shouldGiveAWeightOneGroupLittleBesideAWeightHundredGroupOnOneCpu() throws Exception {
        CpuCgroup low = child(root, CpuLimits.none().withWeight(1));
        CpuCgroup normal = child(root, CpuLimits.none().withWeight(100));
        double lowShare = shareOfFirst(low, normal);
        System.out.printf("cpu.weight 1 beside 100 on one CPU: %.1f%% of the pair's CPU time%n", lowShare);
        assertThat(lowShare).isLessThan(15.0);
    }

    @Test
    void shouldGiveAnIdleGroupLittleBesideANormalGroupOnOneCpu() throws Exception {
        CpuCgroup idle = child(root, CpuLimits.none());
        assumeTrue(Files.exists(idle.path().resolve("cpu.idle")), "this kernel ("
                + System.getProperty("os.version") + ") has no cpu.idle: it arrived in Linux 5.15");
        idle.apply(CpuLimits.none().withIdle(true));
        CpuCgroup normal = child(root, CpuLimits.none());
        double idleShare = shareOfFirst(idle, normal);
        System.out.printf("cpu.idle 1 beside a normal group on one CPU: %.1f%% of the pair's CPU time%n", idleShare);
        assertThat(idleShare).isLessThan(15.0);
    }

    @Test
    void shouldLetAnOuterQuotaBoundAGroupNestedInside() throws Exception {
        CpuCgroup outer = child(root, CpuLimits.none().withQuotaPercent(20));
        CpuCgroup inner = child(outer.path(), CpuLimits.none().withQuotaPercent(80));
        assertThat(inner.cgroupPath()).isEqualTo(outer.cgroupPath() + "/" + inner.name());
        assertThat(words(outer.path().resolve("cgroup.subtree_control"))).contains("cpu");
        Process loop = loop(inner);
        assertThat(system.cpuCgroupOf(loop.pid())).isEqualTo(inner.cgroupPath());
        CgroupUsage before = outer.usage();
        long start = System.nanoTime();
        Thread.sleep(3000);
        double percent = percentOfACpu(before, outer.usage(), start);
        System.out.printf("cpu.max 80%% inside cpu.max 20%%: %.1f%% of a CPU%n", percent);
        assertThat(percent).isLessThanOrEqualTo(22.5);
        assertThatThrownBy(outer::close).as("a group with a child cannot go first").isInstanceOf(CgroupException.class);
    }

    /**
     * "No internal processes" as the kernel applies it to cpu, a threaded controller: enabling cpu in a group that
     * holds processes is accepted but makes it a thread root whose new children refuse processes (EOPNOTSUPP). The
     * engine therefore refuses such a parent before writing anything.
     */
    @Test
    void shouldRefuseAParentHoldingProcessesAsTheKernelWouldRefuseItsChildren() throws Exception {
        CpuCgroup busy = child(root, CpuLimits.none());
        Process sleeper = start("sleep", "30");
        busy.placeProcess(sleeper.pid());
        ParentCheck check = system.checkParent(busy.path());
        assertThat(check.usable()).isFalse();
        assertThat(check.detail()).contains("no internal processes", "[" + sleeper.pid() + "]", "EOPNOTSUPP");
        assertThatThrownBy(() -> system.createChild(busy.path()))
                .isInstanceOf(CgroupException.class).hasMessageContaining("holds processes [" + sleeper.pid() + "]");
        assertThat(words(busy.path().resolve("cgroup.subtree_control"))).doesNotContain("cpu");

        // what the refusal spares the user, straight from the kernel
        Path invalid = busy.path().resolve("child");
        Files.writeString(busy.path().resolve("cgroup.subtree_control"), "+cpu");
        try {
            Files.createDirectory(invalid);
            assertThat(read(busy, "cgroup.type")).isEqualTo("domain threaded");
            assertThat(Files.readString(invalid.resolve("cgroup.type")).trim()).isEqualTo("domain invalid");
            Process other = start("sleep", "30");
            assertThatThrownBy(() -> Files.writeString(invalid.resolve("cgroup.procs"), Long.toString(other.pid())))
                    .isInstanceOf(IOException.class).hasMessageContaining("Operation not supported");
        } finally {
            Files.deleteIfExists(invalid);
            Files.writeString(busy.path().resolve("cgroup.subtree_control"), "-cpu");
        }
    }

    @Test
    void shouldRefuseToPlaceASingleThread() {
        CpuCgroup group = child(root, CpuLimits.none());
        assertThatThrownBy(() -> group.placeThread(JnaKernel.get().gettid()))
                .isInstanceOf(CgroupUnsupportedException.class).hasMessageContaining("cgroup v2 moves whole processes");
    }

    /** A shell forking as fast as it can: the whole tree must go, with cgroup.kill where the kernel has it. */
    @Test
    void shouldKillAForkingTreeAndEmptyTheGroup() throws Exception {
        CpuCgroup group = child(root, CpuLimits.none());
        boolean cgroupKill = Files.exists(group.path().resolve("cgroup.kill"));
        // it forks only once placed, so nothing of it runs outside the group
        Process forker = start("sh", "-c", "read go; while :; do sleep 30 & done");
        group.placeProcess(forker.pid());
        forker.getOutputStream().write("go\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        forker.getOutputStream().flush();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (group.pids().size() < 20 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(group.pids().size()).as("processes forked inside the group").isGreaterThanOrEqualTo(20);
        List<ProcessHandle> tree = group.pids().stream().map(ProcessHandle::of).flatMap(java.util.Optional::stream)
                .toList();
        group.killAll();
        System.out.printf("killed %d processes, cgroup.kill %s%n", tree.size(), cgroupKill ? "used" : "absent");
        assertThat(group.pids()).isEmpty();
        assertThat(forker.waitFor(5, TimeUnit.SECONDS)).isTrue();
        assertThat(tree).noneMatch(CpuCgroupV2ITest::running);
        assertThat(cgroupKill).as("cgroup.kill on kernel " + System.getProperty("os.version"))
                .isEqualTo(KernelRelease.atLeast(5, 14));
    }

    private CpuCgroup child(final Path parent, final CpuLimits limits) {
        CpuCgroup group = system.createChild(parent, limits);
        groups.add(group);
        return group;
    }

    private Process loop(final CpuCgroup group) throws IOException {
        Process p = start("sh", "-c", LOOP);
        group.placeProcess(p.pid());
        return p;
    }

    /** Two busy loops pinned to CPU 0, one per group; the first group's part of their CPU time, in percent. */
    private double shareOfFirst(final CpuCgroup first, final CpuCgroup second) throws Exception {
        BitSet cpu0 = new BitSet();
        cpu0.set(0);
        for (CpuCgroup g : List.of(first, second)) {
            JnaKernel.get().setAffinity((int) loop(g).pid(), cpu0);
        }
        Thread.sleep(500);
        long a = first.usage().usageUsec().orElseThrow();
        long b = second.usage().usageUsec().orElseThrow();
        Thread.sleep(3000);
        long da = first.usage().usageUsec().orElseThrow() - a;
        long db = second.usage().usageUsec().orElseThrow() - b;
        assertThat(da + db).as("CPU time of the two loops").isPositive();
        return 100.0 * da / (da + db);
    }

    private static double percentOfACpu(final CgroupUsage before, final CgroupUsage after, final long startNanos) {
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        return (after.usageUsec().orElseThrow() - before.usageUsec().orElseThrow()) / 1e6 / seconds * 100;
    }

    private Process start(final String... command) throws IOException {
        Process p = new ProcessBuilder(command).start();
        started.add(p);
        return p;
    }

    private static String read(final CpuCgroup group, final String file) throws IOException {
        return Files.readString(group.path().resolve(file)).trim();
    }

    private static List<String> words(final Path file) throws IOException {
        return List.of(Files.readString(file).trim().split("\\s+"));
    }

    /** Alive and not a zombie: orphans of the killed shell wait for their reaper, which may be slow or absent. */
    private static boolean running(final ProcessHandle h) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(h.pid()), "stat"));
            char state = stat.charAt(stat.lastIndexOf(')') + 2);
            return state != 'Z' && state != 'X';
        } catch (IOException gone) {
            return false;
        }
    }
}
