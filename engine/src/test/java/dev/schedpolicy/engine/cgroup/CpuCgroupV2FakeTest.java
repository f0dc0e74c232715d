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

class CpuCgroupV2FakeTest {
    @TempDir
    Path tmp;
    private FakeCgroupTree tree;
    private Path slice;
    private Path service;

    @BeforeEach
    void systemdMachine() throws IOException {
        tree = FakeCgroupTree.pureV2(tmp);
        slice = tree.cgroupfs("schedpolicy.slice");
        service = tree.cgroupfs("system.slice/jenkins-agent.service");
    }

    @Test
    void shouldEnableCpuForChildrenOfAnEmptyParentAndWriteCpuMaxWeightIdle() throws IOException {
        try (CpuCgroup group = tree.system().createChild(slice,
                new CpuLimits(OptionalInt.of(25), OptionalInt.of(20), true))) {
            assertThat(Files.readString(slice.resolve("cgroup.subtree_control"))).isEqualTo("cpu");
            assertThat(Files.readString(group.path().resolve("cpu.max"))).isEqualTo("25000 100000");
            assertThat(Files.readString(group.path().resolve("cpu.weight"))).isEqualTo("20");
            assertThat(Files.readString(group.path().resolve("cpu.idle"))).isEqualTo("1");
            assertThat(group.readLimits()).isEqualTo(new CpuLimits(OptionalInt.of(25), OptionalInt.empty(), true));
            assertThat(group.cgroupPath()).isEqualTo("/schedpolicy.slice/" + group.name());
            assertThat(group.version()).isEqualTo(CgroupVersion.V2);
        }
        assertThat(slice.toFile().list((dir, name) -> name.startsWith("schedpolicy-"))).isEmpty();
    }

    @Test
    void shouldReadUnlimitedQuotaBackAsAbsent() {
        try (CpuCgroup group = tree.system().createChild(slice)) {
            assertThat(group.readLimits()).isEqualTo(new CpuLimits(OptionalInt.empty(), OptionalInt.of(100), false));
        }
    }

    @Test
    void shouldExplainNoInternalProcessesWhenTheOwnServiceHoldsTheAgent() {
        ParentCheck check = tree.system().checkParent(service);

        assertThat(check.usable()).isFalse();
        assertThat(check.detail()).contains("allows no processes in a cgroup whose children hold processes",
                "[4242, 4250]", "leaf child", "--cgroup-parent");
    }

    /** The real kernel accepts +cpu there (CpuCgroupV2ITest): the refusal must come before anything is written. */
    @Test
    void shouldRefuseCreatingUnderABusyParentBeforeEnablingCpuThere() throws IOException {
        Files.writeString(service.resolve("cgroup.controllers"), "cpu memory\n");

        assertThatThrownBy(() -> tree.system().createChild(service))
                .isInstanceOf(CgroupException.class)
                .hasMessageContaining("cannot create a cpu cgroup under " + service)
                .hasMessageContaining("holds processes [4242, 4250]");
        assertThat(Files.readString(service.resolve("cgroup.subtree_control"))).doesNotContain("cpu");
    }

    @Test
    void shouldAcceptTheRootCgroupDespiteItsProcesses() {
        Path root = tree.cgroupfs("");

        ParentCheck check = tree.system().checkParent(root);

        assertThat(check.usable()).as(check.detail()).isTrue();
    }

    @Test
    void shouldRefuseAParentWhereCpuIsNotDelegated() throws IOException {
        Files.writeString(slice.resolve("cgroup.controllers"), "memory pids\n");

        ParentCheck check = tree.system().checkParent(slice);

        assertThat(check.usable()).isFalse();
        assertThat(check.detail()).contains("cpu controller is not available", "Delegate=yes");
    }

    /** In the v2 lab, --cgroup-parent /tmp ended probe with "cannot read /tmp/cgroup.controllers" (exit 1). */
    @Test
    void shouldRefuseAParentOutsideTheCgroupFilesystemInWordsAndWriteNothingThere() throws IOException {
        Path outside = Files.createDirectories(tmp.resolve("not-cgroupfs"));

        ParentCheck check = tree.system().checkParent(outside);
        assertThat(check.usable()).isFalse();
        assertThat(check.detail()).contains(outside + " is not inside the V2 cgroup hierarchy mounted at ",
                "give a directory under it");
        assertThatThrownBy(() -> tree.system().createChild(outside))
                .isInstanceOf(CgroupException.class)
                .hasMessageContaining("cannot create a cpu cgroup under " + outside)
                .hasMessageContaining("is not inside the V2 cgroup hierarchy");
        assertThat(outside.toFile().list()).isEmpty();
    }

    @Test
    void shouldTellThatEmptyParentsGetCpuEnabledOnFirstUse() {
        ParentCheck check = tree.system().checkParent(slice);

        assertThat(check.usable()).isTrue();
        assertThat(check.detail()).contains("cpu will be enabled");
    }

    @Test
    void shouldRefuseThreadPlacementPointingToParkAndRelease() {
        try (CpuCgroup group = tree.system().createChild(slice)) {
            assertThatThrownBy(() -> group.placeThread(1234))
                    .isInstanceOf(CgroupUnsupportedException.class)
                    .hasMessageContaining("thread placement needs cgroup v1")
                    .hasMessageContaining("park-and-release");
        }
    }

    @Test
    void shouldReadUsageAndThrottlingFromCpuStat() throws IOException {
        try (CpuCgroup group = tree.system().createChild(slice)) {
            Files.writeString(group.path().resolve("cpu.stat"), "usage_usec 501234\nuser_usec 400000\n"
                    + "system_usec 101234\nnr_periods 21\nnr_throttled 19\nthrottled_usec 1480000\n"
                    + "nr_bursts 0\nburst_usec 0\n");

            assertThat(group.usage()).isEqualTo(new CgroupUsage(OptionalLong.of(501_234), 21, 19, 1_480_000));
        }
    }

    @Test
    void shouldPlaceAProcessThroughCgroupProcs() throws IOException {
        try (CpuCgroup group = tree.system().createChild(slice)) {
            group.placeProcess(4242);
            assertThat(group.pids()).containsExactly(4242L);
            Files.writeString(group.path().resolve("cgroup.procs"), "");
        }
    }

    @Test
    void shouldRefuseIdleWithoutCpuIdleFile() {
        tree.kernfs.withoutIdle();

        assertThatThrownBy(() -> tree.system().createChild(slice, CpuLimits.none().withIdle(true)))
                .isInstanceOf(CgroupUnsupportedException.class)
                .hasMessageContaining("Linux 5.15");
    }
}
