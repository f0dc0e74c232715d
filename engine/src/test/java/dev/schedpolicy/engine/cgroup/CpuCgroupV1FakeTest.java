package dev.schedpolicy.engine.cgroup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CpuCgroupV1FakeTest {
    @TempDir
    Path tmp;
    private FakeCgroupTree tree;
    private Path cpuRoot;
    private Path cpuacctRoot;

    @BeforeEach
    void hybridMachine() throws IOException {
        tree = FakeCgroupTree.hybrid(tmp);
        cpuRoot = tree.cgroupfs("cpu");
        cpuacctRoot = tree.cgroupfs("cpuacct");
    }

    @Test
    void shouldCreateAUniquelyNamedGroupAndItsCpuacctCompanion() {
        CgroupSystem system = tree.system();
        try (CpuCgroup a = system.createChild(cpuRoot); CpuCgroup b = system.createChild(cpuRoot)) {
            assertThat(a.name()).matches("schedpolicy-" + ProcessHandle.current().pid() + "-[0-9a-f]{12}-\\d+");
            assertThat(b.name()).isNotEqualTo(a.name());
            assertThat(a.cgroupPath()).isEqualTo("/" + a.name());
            assertThat(a.version()).isEqualTo(CgroupVersion.V1);
            assertThat(cpuacctRoot.resolve(a.name())).isDirectory();
        }
    }

    @Test
    void shouldWritePeriodQuotaSharesAndIdle() throws IOException {
        try (CpuCgroup group = tree.system().createChild(cpuRoot)) {
            group.apply(new CpuLimits(OptionalInt.of(150), OptionalInt.of(50), true));

            assertThat(Files.readString(group.path().resolve("cpu.cfs_period_us"))).isEqualTo("100000");
            assertThat(Files.readString(group.path().resolve("cpu.cfs_quota_us"))).isEqualTo("150000");
            assertThat(Files.readString(group.path().resolve("cpu.shares"))).isEqualTo("512");
            assertThat(Files.readString(group.path().resolve("cpu.idle"))).isEqualTo("1");
            assertThat(group.readLimits()).as("an idle group's weight is the kernel's, not ours")
                    .isEqualTo(new CpuLimits(OptionalInt.of(150), OptionalInt.empty(), true));
        }
    }

    @Test
    void shouldLeaveKernelDefaultsForAbsentLimits() throws IOException {
        try (CpuCgroup group = tree.system().createChild(cpuRoot, CpuLimits.none().withWeight(200))) {
            assertThat(Files.readString(group.path().resolve("cpu.cfs_quota_us"))).isEqualTo("-1");
            assertThat(Files.readString(group.path().resolve("cpu.idle"))).isEqualTo("0");
            assertThat(group.readLimits()).isEqualTo(new CpuLimits(OptionalInt.empty(), OptionalInt.of(200), false));
        }
    }

    @Test
    void shouldMapWeightToSharesLikeSystemd() {
        assertThat(V1CpuController.sharesForWeight(100)).isEqualTo(1024);
        assertThat(V1CpuController.sharesForWeight(1)).isEqualTo(10);
        assertThat(V1CpuController.sharesForWeight(10_000)).isEqualTo(102_400);
        assertThat(V1CpuController.weightForShares(10)).isEqualTo(1);
        assertThat(V1CpuController.weightForShares(2)).as("clamped up to the smallest weight").isEqualTo(1);
        assertThat(V1CpuController.weightForShares(262_144)).isEqualTo(10_000);
    }

    @Test
    void shouldRefuseIdleOnAKernelWithoutCpuIdleAndRemoveTheGroup() {
        tree.kernfs.withoutIdle();
        CgroupSystem system = tree.system();

        assertThatThrownBy(() -> system.createChild(cpuRoot, CpuLimits.none().withIdle(true)))
                .isInstanceOf(CgroupUnsupportedException.class)
                .hasMessageContaining("cpu.idle does not exist")
                .hasMessageContaining("Linux 5.15");
        assertThat(system.sweepStale(cpuRoot)).isEmpty();
        assertThat(cpuRoot.toFile().list((dir, name) -> name.startsWith("schedpolicy-"))).isEmpty();
    }

    @Test
    void shouldPlaceProcessesAndThreadsInBothHierarchies() throws IOException {
        try (CpuCgroup group = tree.system().createChild(cpuRoot)) {
            group.placeProcess(4242);
            assertThat(Files.readString(group.path().resolve("cgroup.procs"))).isEqualTo("4242");
            assertThat(Files.readString(cpuacctRoot.resolve(group.name()).resolve("cgroup.procs"))).isEqualTo("4242");
            assertThat(group.pids()).containsExactly(4242L);

            group.placeThread(4243);
            assertThat(Files.readString(group.path().resolve("tasks"))).isEqualTo("4243");
            assertThat(Files.readString(cpuacctRoot.resolve(group.name()).resolve("tasks"))).isEqualTo("4243");
            emptyFake(group);
        }
    }

    @Test
    void shouldReadThrottlingFromCpuStatAndTimeFromTheCpuacctCompanion() throws IOException {
        try (CpuCgroup group = tree.system().createChild(cpuRoot)) {
            Files.writeString(group.path().resolve("cpu.stat"),
                    "nr_periods 20\nnr_throttled 15\nthrottled_time 1500000000\nnr_bursts 0\nburst_time 0\n");
            Files.writeString(cpuacctRoot.resolve(group.name()).resolve("cpuacct.usage"), "500000000\n");

            assertThat(group.usage()).isEqualTo(new CgroupUsage(OptionalLong.of(500_000), 20, 15, 1_500_000));
        }
    }

    @Test
    void shouldReportUsageAbsentWhenNoCpuacctGroupCanBeMade() throws IOException {
        tree.kernfs.denied(cpuacctRoot);
        try (CpuCgroup group = tree.system().createChild(cpuRoot, CpuLimits.none().withQuotaPercent(25))) {
            assertThat(group.usage().usageUsec()).isEmpty();
            assertThat(group.usage().nrPeriods()).isZero();
            assertThat(group.toString()).contains("no CPU time accounting");
        }
    }

    @Test
    void shouldRemoveBothDirectoriesOnClose() {
        CpuCgroup group = tree.system().createChild(cpuRoot);
        group.close();
        group.close();

        assertThat(group.path()).doesNotExist();
        assertThat(cpuacctRoot.resolve(group.name())).doesNotExist();
    }

    @Test
    void shouldLeaveABusyGroupInPlaceAndNameItsPids() throws IOException {
        CpuCgroup group = tree.system().createChild(cpuRoot);
        Files.writeString(group.path().resolve("cgroup.procs"), "31337\n31338\n");

        assertThatThrownBy(group::close)
                .isInstanceOf(CgroupException.class)
                .hasMessageContaining("still holds processes [31337, 31338]")
                .hasMessageContaining("left in place");
        assertThat(group.path()).isDirectory();

        emptyFake(group);
        group.close();
        assertThat(group.path()).doesNotExist();
    }

    @Test
    void shouldSweepOnlyEmptyGroupsOfDeadCreators() throws IOException {
        long dead = deadPid();
        Path stale = mkdirFake("schedpolicy-" + dead + "-0");
        Path staleCompanion = cpuacctRoot.resolve("schedpolicy-" + dead + "-0");
        Files.createDirectory(staleCompanion);
        FakeKernfs.put(staleCompanion, "cgroup.procs", "");
        Path busy = mkdirFake("schedpolicy-" + dead + "-1");
        Files.writeString(busy.resolve("cgroup.procs"), "555\n");
        Path live = mkdirFake("schedpolicy-" + ProcessHandle.current().pid() + "-999");
        Path foreign = mkdirFake("docker");

        assertThat(tree.system().sweepStale(cpuRoot)).containsExactlyInAnyOrder(stale, staleCompanion);
        assertThat(stale).doesNotExist();
        assertThat(busy).isDirectory();
        assertThat(live).isDirectory();
        assertThat(foreign).isDirectory();
    }

    @Test
    void shouldPassOverAGroupThatAnotherSweeperRemovesMidway() throws IOException {
        long dead = deadPid();
        Path vanishing = mkdirFake("schedpolicy-" + dead + "-0");
        Path stale = mkdirFake("schedpolicy-" + dead + "-1");
        // the other engine's rmdir lands between our listing and our read: its cgroup.procs is gone
        Files.delete(vanishing.resolve("cgroup.procs"));

        assertThat(tree.system().sweepStale(cpuRoot)).containsExactly(stale);
    }

    @Test
    void shouldSayWhyAProcessCannotBePlaced() throws IOException {
        CgroupFiles refusing = new FakeKernfs(cpuRoot, cpuacctRoot, null) {
            @Override
            void write(final Path file, final String value) {
                throw CgroupFiles.failure("write '" + value + "' to", file, new IOException("No such process"), "");
            }
        };
        CgroupSystem system = CgroupSystem.detect(tree.proc, tmp, refusing);
        try (CpuCgroup group = system.createChild(cpuRoot)) {
            assertThatThrownBy(() -> group.placeProcess(31337))
                    .isInstanceOf(CgroupException.class)
                    .hasMessageContaining("cannot write '31337' to " + group.path().resolve("cgroup.procs"))
                    .hasMessageContaining("no such process (ESRCH)")
                    .hasMessageContaining("the process 31337 has already exited");
        }
    }

    @Test
    void shouldFindTheParentUsableByTryingAScratchChild() {
        ParentCheck check = tree.system().checkParent(cpuRoot);

        assertThat(check.usable()).isTrue();
        assertThat(cpuRoot.toFile().list((dir, name) -> name.startsWith("schedpolicy-"))).isEmpty();
    }

    @Test
    void shouldFindAMissingParentUnusable() {
        ParentCheck check = tree.system().checkParent(cpuRoot.resolve("nope"));

        assertThat(check.usable()).isFalse();
        assertThat(check.detail()).contains("does not exist");
    }

    /** systemd's v1 layout: /sys/fs/cgroup/cpu is a link to cpu,cpuacct; users type the link's name. */
    @Test
    void shouldTakeAParentGivenThroughALinkToTheMountAsInsideIt() throws IOException {
        Path link = Files.createSymbolicLink(cpuRoot.resolveSibling("cpu-link"), cpuRoot);

        assertThat(tree.system().checkParent(link.resolve("nope")).detail()).contains("does not exist")
                .doesNotContain("is not inside");
        assertThat(tree.system().checkParent(cpuRoot.resolveSibling("elsewhere")).detail())
                .contains("is not inside the V1 cgroup hierarchy mounted at " + cpuRoot);
    }

    /**
     * The same link for a parent that exists: the group is made, named by its cgroup path (as /proc/PID/cgroup shows
     * it), found idle through its idle parent, and removed with its companion; before, the check that took the parent
     * as inside and the one that named the group disagreed, and the launch failed after the mkdir, leaving the group.
     */
    @Test
    void shouldMakeAndRemoveAGroupUnderAParentGivenThroughALinkToTheMount() throws IOException {
        Path idle = mkdirFake("idle-parent");
        Files.writeString(idle.resolve("cpu.idle"), "1");
        Files.createDirectory(cpuacctRoot.resolve("idle-parent"));
        Path link = Files.createSymbolicLink(cpuRoot.resolveSibling("cpu-link"), cpuRoot);
        CgroupSystem system = tree.system();

        CpuCgroup group = system.createChild(link.resolve("idle-parent"));
        assertThat(group.cgroupPath()).isEqualTo("/idle-parent/" + group.name());
        assertThat(system.cpuPathOf(link.resolve("idle-parent"))).isEqualTo("/idle-parent");
        assertThat(system.idleAncestor(group.path())).as("idle through the parent, found through the link").isPresent();
        assertThat(cpuacctRoot.resolve("idle-parent").resolve(group.name())).isDirectory();
        group.close();
        assertThat(idle.toFile().list((dir, name) -> name.startsWith("schedpolicy-"))).isEmpty();
        assertThatThrownBy(() -> system.cpuPathOf(cpuRoot.resolveSibling("elsewhere")))
                .hasMessageContaining("is not inside the V1 cgroup hierarchy mounted at " + cpuRoot);
    }

    private Path mkdirFake(final String name) throws IOException {
        Path dir = cpuRoot.resolve(name);
        Files.createDirectory(dir);
        tree.kernfs.populateV1Cpu(dir);
        return dir;
    }

    private void emptyFake(final CpuCgroup group) throws IOException {
        Files.writeString(group.path().resolve("cgroup.procs"), "");
        Path companion = cpuacctRoot.resolve(group.name()).resolve("cgroup.procs");
        if (Files.exists(companion)) {
            Files.writeString(companion, "");
        }
    }

    static long deadPid() {
        try {
            Process p = new ProcessBuilder("true").start();
            p.waitFor();
            return p.pid();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start `true` to get a dead pid", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
