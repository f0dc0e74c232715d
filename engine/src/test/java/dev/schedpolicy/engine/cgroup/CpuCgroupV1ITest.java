package dev.schedpolicy.engine.cgroup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/** Against the real kernel: the cpu controller on cgroup v1, as on the 2-core development machine and its CI. */
@EnabledOnOs(OS.LINUX)
@Tag("kernel")
class CpuCgroupV1ITest {
    /** USER_HZ: /proc reports utime/stime in these ticks on every Linux architecture we build for. */
    private static final double TICKS_PER_SECOND = 100;
    private static final String OURS = GroupNames.PREFIX + ProcessHandle.current().pid() + "-";

    private static CgroupSystem system;
    private static Path parent;
    private final List<Process> started = new ArrayList<>();

    /** Per test, not @BeforeAll: a class-level assumption is not reported as skipped tests, so it would hide them. */
    @BeforeEach
    void realV1CpuHierarchy() {
        system = CgroupSystem.detect();
        assumeTrue(system.cpuHierarchy().map(h -> h.version() == CgroupVersion.V1).orElse(false),
                "needs the cpu controller on cgroup v1 (the development machine and its CI have it at /sys/fs/cgroup/cpu);"
                        + " the v2 code is covered by CpuCgroupV2FakeTest");
        ParentCheck check = system.checkParent(system.ownCpuCgroupDir());
        assumeTrue(check.usable(), "needs a writable cpu cgroup (CI runs as root): " + check.detail());
        parent = system.defaultParent(Optional.empty());
    }

    @AfterEach
    void killStarted() {
        started.forEach(Process::destroyForcibly);
    }

    @AfterAll
    static void noGroupOfOursIsLeft() throws IOException {
        if (parent == null) {
            return;
        }
        assertThat(ourGroupsUnder(parent)).isEmpty();
        Path cpuacct = Path.of("/sys/fs/cgroup/cpuacct");
        if (Files.isDirectory(cpuacct)) {
            assertThat(ourGroupsUnder(cpuacct)).isEmpty();
        }
    }

    @Test
    void shouldHoldABusyLoopToItsQuotaOfAQuarterCpu() throws Exception {
        try (CpuCgroup group = system.createChild(parent, CpuLimits.none().withQuotaPercent(25))) {
            Process loop = start("sh", "-c", "while :; do :; done");
            group.placeProcess(loop.pid());
            assertThat(system.cpuCgroupOf(loop.pid())).isEqualTo(group.cgroupPath());

            CgroupUsage before = group.usage();
            long ticksBefore = cpuTicks(loop.pid());
            long start = System.nanoTime();
            Thread.sleep(2000);
            long ticksAfter = cpuTicks(loop.pid());
            double seconds = (System.nanoTime() - start) / 1e9;
            CgroupUsage after = group.usage();

            double percent = (ticksAfter - ticksBefore) / TICKS_PER_SECOND / seconds * 100;
            double accountedPercent = (after.usageUsec().orElseThrow() - before.usageUsec().orElseThrow())
                    / 1e6 / seconds * 100;
            System.out.printf("25%% quota: loop used %.1f%% of a CPU by utime+stime, %.1f%% by cpuacct;"
                    + " throttled in %d of %d periods, %d us%n", percent, accountedPercent,
                    after.nrThrottled(), after.nrPeriods(), after.throttledUsec());

            // Tight above: a quota is a hard ceiling. A 2 s window can hold the quota of 21 periods (26.25 %),
            // and utime/stime are sampled in 10 ms ticks.
            assertThat(percent).isLessThanOrEqualTo(30.0);
            assertThat(accountedPercent).isLessThanOrEqualTo(27.5);
            // Honest below: two cores shared with other builds can hold the loop under its quota, but with
            // fair sharing among a handful of busy builds it still gets its quarter.
            assertThat(percent).isGreaterThanOrEqualTo(20.0);
            assertThat(after.nrThrottled()).isPositive();
            assertThat(after.throttledUsec()).isPositive();
            assertThat(group.readLimits().quotaPercent()).hasValue(25);
            assertThat(Files.readString(group.path().resolve("cpu.cfs_quota_us")).trim()).isEqualTo("25000");

            group.killAll();
            assertThat(group.pids()).isEmpty();
            assertThat(loop.waitFor(2, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void shouldWriteAndReadBackWeightAsSharesAndIdle() throws IOException {
        try (CpuCgroup group = system.createChild(parent, CpuLimits.none().withWeight(50))) {
            assertThat(Files.readString(group.path().resolve("cpu.shares")).trim()).isEqualTo("512");
            assertThat(group.readLimits().weight()).hasValue(50);
            assertThat(group.readLimits().idle()).isFalse();

            group.apply(CpuLimits.none().withIdle(true));

            assertThat(Files.readString(group.path().resolve("cpu.idle")).trim()).isEqualTo("1");
            assertThat(Files.readString(group.path().resolve("cpu.shares")).trim())
                    .as("the kernel gives an idle group the idle weight").isEqualTo("3");
            assertThat(group.readLimits().idle()).isTrue();
            assertThat(group.readLimits().weight()).isEmpty();
        }
    }

    @Test
    void shouldNameFileAndErrnoWhenTheKernelRefusesAWeightOnAnIdleGroup() {
        try (CpuCgroup group = system.createChild(parent, CpuLimits.none().withIdle(true))) {
            assertThatThrownBy(() -> group.apply(CpuLimits.none().withWeight(50)))
                    .isInstanceOf(CgroupException.class)
                    .hasMessageContaining("cannot write '512' to " + group.path().resolve("cpu.shares"))
                    .hasMessageContaining("invalid argument (EINVAL)");
        }
    }

    @Test
    void shouldPlaceOneThreadWhoseChildrenAreBornInTheGroup() throws Exception {
        try (CpuCgroup group = system.createChild(parent, CpuLimits.none().withQuotaPercent(50))) {
            AtomicReference<String> threadCgroup = new AtomicReference<>();
            AtomicReference<Process> child = new AtomicReference<>();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread policyThread = new Thread(() -> {
                try {
                    long tid = ownTid();
                    group.placeThread(tid);
                    threadCgroup.set(system.cpuCgroupOfThread(ProcessHandle.current().pid(), tid));
                    child.set(start("sleep", "30"));
                } catch (IOException | RuntimeException e) {
                    failure.set(e);
                }
            });
            policyThread.start();
            policyThread.join();

            assertThat(failure.get()).isNull();
            assertThat(threadCgroup.get()).isEqualTo(group.cgroupPath());
            assertThat(system.cpuCgroupOf(child.get().pid())).isEqualTo(group.cgroupPath());
            assertThat(system.ownCpuCgroup()).as("the rest of the JVM stays put").isEqualTo("/");
            assertThat(group.pids()).contains(child.get().pid());

            group.killAll();
            assertThat(child.get().waitFor(2, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void shouldLeaveAGroupWithARunningProcessAndNameItThenRemoveItOnceKilled() throws Exception {
        CpuCgroup group = system.createChild(parent);
        Process sleeper = start("sleep", "30");
        group.placeProcess(sleeper.pid());

        assertThatThrownBy(group::close)
                .isInstanceOf(CgroupException.class)
                .hasMessageContaining("still holds processes [" + sleeper.pid() + "]");
        assertThat(group.path()).isDirectory();

        group.killAll();
        group.close();
        assertThat(group.path()).doesNotExist();
    }

    /**
     * Remoting interrupts an agent's running calls when its connection drops: a probe or a block's end cleaning
     * up then ran on an interrupted thread, gave up at the first wait, and left its group (the live fault suite's
     * connection-drop case).
     */
    @Test
    void shouldKillAndRemoveAGroupOnAnInterruptedThreadAndKeepTheInterrupt() throws Exception {
        CpuCgroup group = system.createChild(parent);
        Process sleeper = start("sleep", "30");
        group.placeProcess(sleeper.pid());

        Thread.currentThread().interrupt();
        try {
            group.killAll();
            group.close();
        } finally {
            assertThat(Thread.interrupted()).as("the caller's interrupt is kept").isTrue();
        }
        assertThat(group.path()).doesNotExist();
        assertThat(sleeper.isAlive()).isFalse();
    }

    @Test
    void shouldSayTheProcessHasExitedWhenPlacingADeadPid() {
        long dead = CpuCgroupV1FakeTest.deadPid();
        try (CpuCgroup group = system.createChild(parent)) {
            assertThatThrownBy(() -> group.placeProcess(dead))
                    .isInstanceOf(CgroupException.class)
                    .hasMessageContaining("no such process (ESRCH)")
                    .hasMessageContaining("has already exited");
        }
    }

    @Test
    void shouldSweepAnEmptyGroupOfACrashedRunButNotABusyOne() throws Exception {
        long dead = CpuCgroupV1FakeTest.deadPid();
        Path stale = parent.resolve(GroupNames.PREFIX + dead + "-0");
        Path busy = parent.resolve(GroupNames.PREFIX + dead + "-1");
        Files.createDirectory(stale);
        Files.createDirectory(busy);
        Process sleeper = start("sleep", "30");
        Files.writeString(busy.resolve("cgroup.procs"), Long.toString(sleeper.pid()));
        try {
            List<Path> removed = system.sweepStale(parent);

            assertThat(removed).contains(stale).doesNotContain(busy);
            assertThat(stale).doesNotExist();
            assertThat(busy).isDirectory();
        } finally {
            sleeper.destroyForcibly().waitFor();
            system.sweepStale(parent);
        }
        assertThat(busy).doesNotExist();
    }

    /**
     * PIDs wrap: an empty group whose maker's PID now belongs to a process that started after the group was made is a
     * crashed run's, and is swept; the same name made after that process started is that process's, and is kept.
     */
    @Test
    void shouldSweepAGroupWhosePidWasTakenByAYoungerProcess() throws Exception {
        Process sleeper = start("sleep", "30");
        Path older = parent.resolve(GroupNames.PREFIX + sleeper.pid() + "-0123456789ab-0");
        Path current = parent.resolve(GroupNames.PREFIX + sleeper.pid() + "-0123456789ab-1");
        try {
            Files.createDirectory(older);
            Files.createDirectory(current);
            Instant started = sleeper.info().startInstant().orElseThrow();
            Files.setLastModifiedTime(older, FileTime.from(started.minus(Duration.ofHours(1))));

            List<Path> removed = system.sweepStale(parent);

            assertThat(removed).contains(older).doesNotContain(current);
            assertThat(older).doesNotExist();
            assertThat(current).isDirectory();
        } finally {
            sleeper.destroyForcibly().waitFor();
            system.sweepStale(parent);
        }
        assertThat(current).doesNotExist();
    }

    @Test
    void shouldFindTheOwnCpuCgroupUsableByTryingAndLeaveNothingBehind() throws IOException {
        ParentCheck check = system.checkParent(parent);

        assertThat(check.usable()).as(check.detail()).isTrue();
        assertThat(ourGroupsUnder(parent)).isEmpty();
    }

    /**
     * systemd's v1 layout mounts cpu,cpuacct and links /sys/fs/cgroup/cpu to it; administrators type the link's name.
     * There (the kernel lab's --cgroup v1) the test goes through that link; where cpu is its own mount (the
     * development machine) through a link of its own to the mount: the same path resolution either way. The group is made, a
     * process placed in it reads the group's path from the kernel, and nothing is left.
     */
    @Test
    void shouldMakePlaceAndRemoveAGroupUnderAParentGivenThroughALinkToTheMount() throws Exception {
        Path mount = system.cpuHierarchy().orElseThrow().mountPoint();
        Path systemdLink = Path.of("/sys/fs/cgroup/cpu");
        Path tmp = null;
        Path link;
        if (Files.isSymbolicLink(systemdLink) && systemdLink.toRealPath().equals(mount.toRealPath())) {
            link = systemdLink;
        } else {
            tmp = Files.createTempDirectory("schedpolicy-link");
            link = Files.createSymbolicLink(tmp.resolve("cpu"), mount);
        }
        try {
            Path linkedParent = link.resolve(mount.relativize(parent).toString());
            assertThat(system.checkParent(linkedParent).usable()).isTrue();
            Path made;
            try (CpuCgroup group = system.createChild(linkedParent, CpuLimits.none().withQuotaPercent(50))) {
                made = group.path();
                Process sleeper = start("sleep", "30");
                group.placeProcess(sleeper.pid());
                assertThat(system.cpuCgroupOf(sleeper.pid())).isEqualTo(group.cgroupPath())
                        .isEqualTo(system.cpuPathOf(parent).equals("/") ? "/" + group.name()
                                : system.cpuPathOf(parent) + "/" + group.name());
                sleeper.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
            assertThat(made).doesNotExist();
            assertThat(mount.resolve(mount.relativize(parent).toString()).resolve(made.getFileName().toString())).doesNotExist();
        } finally {
            if (tmp != null) {
                Files.delete(link);
                Files.delete(tmp);
            }
        }
    }

    private Process start(final String... command) throws IOException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        started.add(process);
        return process;
    }

    private static long cpuTicks(final long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        // fields[0] is field 3 (state), so utime (14) and stime (15) are at 11 and 12
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }

    private static long ownTid() throws IOException {
        return Long.parseLong(Files.readSymbolicLink(Path.of("/proc/thread-self")).getFileName().toString());
    }

    private static List<String> ourGroupsUnder(final Path dir) throws IOException {
        try (Stream<Path> children = Files.list(dir)) {
            return children.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(OURS)).toList();
        }
    }

    /** A killed task in an idle-weighted group runs only on a free CPU, so killAll waits longer there. */
    @Test
    void shouldKnowAGroupUnderAnIdleGroupIsIdleWeighted() {
        try (CpuCgroup idle = system.createChild(parent, new CpuLimits(java.util.OptionalInt.empty(),
                java.util.OptionalInt.empty(), true));
                CpuCgroup plain = system.createChild(parent);
                CpuCgroup underIdle = system.createChild(idle.path());
                CpuCgroup underPlain = system.createChild(plain.path())) {
            assertThat(idle.idleWeighted()).isTrue();
            assertThat(underIdle.idleWeighted()).as("cpu.idle 0 itself, but its parent is idle").isTrue();
            assertThat(plain.idleWeighted()).isFalse();
            assertThat(underPlain.idleWeighted()).isFalse();
        } // closed in reverse order: the children before their parents
    }
}
