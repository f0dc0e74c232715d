package dev.schedpolicy.engine.cgroup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CgroupDetectionTest {
    @TempDir
    Path tmp;

    @Test
    void shouldDetectHybridWithCpuOnItsOwnV1Hierarchy() throws IOException {
        CgroupSystem system = FakeCgroupTree.hybrid(tmp).system();

        assertThat(system.mode()).isEqualTo(CgroupMode.HYBRID);
        assertThat(system.cpuHierarchy()).get().satisfies(cpu -> {
            assertThat(cpu.version()).isEqualTo(CgroupVersion.V1);
            assertThat(cpu.mountPoint()).isEqualTo(tmp.resolve("sys/fs/cgroup/cpu"));
            assertThat(cpu.controllers()).containsExactly("cpu");
            assertThat(cpu.readOnly()).isFalse();
        });
        assertThat(system.hierarchies()).extracting(CgroupHierarchy::version)
                .containsOnlyOnce(CgroupVersion.V2);
        assertThat(system.ownCpuCgroup()).isEqualTo("/");
        assertThat(system.ownCpuCgroupDir()).isEqualTo(tmp.resolve("sys/fs/cgroup/cpu"));
    }

    @Test
    void shouldDetectPureV2AndFindTheAgentsServiceCgroup() throws IOException {
        CgroupSystem system = FakeCgroupTree.pureV2(tmp).system();

        assertThat(system.mode()).isEqualTo(CgroupMode.V2);
        assertThat(system.cpuHierarchy()).get().extracting(CgroupHierarchy::version).isEqualTo(CgroupVersion.V2);
        assertThat(system.ownCpuCgroup()).isEqualTo(FakeCgroupTree.AGENT_SERVICE);
        assertThat(system.ownCpuCgroupDir())
                .isEqualTo(tmp.resolve("sys/fs/cgroup/system.slice/jenkins-agent.service"));
    }

    @Test
    void shouldMapAContainersCgroupThroughTheMountRootOfAReadOnlyV1Mount() throws IOException {
        CgroupSystem system = FakeCgroupTree.dockerV1ReadOnly(tmp).system();

        assertThat(system.mode()).isEqualTo(CgroupMode.V1);
        CgroupHierarchy cpu = system.cpuHierarchy().orElseThrow();
        assertThat(cpu.readOnly()).isTrue();
        assertThat(cpu.mountRoot()).isEqualTo("/docker/4f2a0c8e1b7d");
        assertThat(cpu.controllers()).containsExactlyInAnyOrder("cpu", "cpuacct");
        assertThat(system.ownCpuCgroup()).isEqualTo("/docker/4f2a0c8e1b7d");
        assertThat(system.ownCpuCgroupDir()).isEqualTo(tmp.resolve("sys/fs/cgroup/cpu,cpuacct"));
    }

    @Test
    void shouldReportReadOnlyV1ContainerParentAsUnusableWithErrnoAndFix() throws IOException {
        CgroupSystem system = FakeCgroupTree.dockerV1ReadOnly(tmp).system();

        ParentCheck check = system.checkParent(system.ownCpuCgroupDir());

        assertThat(check.usable()).isFalse();
        assertThat(check.detail()).contains("read-only file system (EROFS)", "cannot create cgroup",
                "--cgroup-parent");
    }

    @Test
    void shouldReportReadOnlyV2ContainerParentAsUnusable() throws IOException {
        FakeCgroupTree tree = FakeCgroupTree.dockerV2ReadOnly(tmp);
        // an empty namespace root, so the only obstacle left is the read-only mount
        FakeKernfs.put(tree.cgroupfs(""), "cgroup.procs", "");
        CgroupSystem system = tree.system();

        assertThat(system.mode()).isEqualTo(CgroupMode.V2);
        assertThat(system.cpuHierarchy()).get().extracting(CgroupHierarchy::readOnly).isEqualTo(true);
        ParentCheck check = system.checkParent(system.ownCpuCgroupDir());
        assertThat(check.usable()).isFalse();
        assertThat(check.detail()).contains("read-only file system (EROFS)");
    }

    @Test
    void shouldFindNoCpuControllerWhenV2ListsNoneAndNoV1HierarchyHasCpu() throws IOException {
        Files.createDirectories(tmp.resolve("proc/self"));
        Files.writeString(tmp.resolve("proc/self/mountinfo"),
                "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n"
                        + "40 31 0:37 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,name=systemd\n");
        Files.writeString(tmp.resolve("proc/self/cgroup"), "1:name=systemd:/\n0::/\n");
        Files.createDirectories(tmp.resolve("sys/fs/cgroup/unified"));
        Files.writeString(tmp.resolve("sys/fs/cgroup/unified/cgroup.controllers"), "memory pids\n");

        CgroupSystem system = CgroupSystem.detect(tmp.resolve("proc"), tmp);

        assertThat(system.mode()).as("a name=systemd hierarchy carries no controller").isEqualTo(CgroupMode.V2);
        assertThat(system.cpuHierarchy()).isEmpty();
        assertThatThrownBy(() -> system.createChild(tmp))
                .isInstanceOf(CgroupUnsupportedException.class)
                .hasMessageContaining("no cpu controller found");
    }

    @Test
    void shouldReportNoCgroupsWhenNothingIsMounted() throws IOException {
        Files.createDirectories(tmp.resolve("proc/self"));
        Files.writeString(tmp.resolve("proc/self/mountinfo"), "27 1 254:0 / / rw,relatime - ext4 /dev/vda rw\n");
        Files.writeString(tmp.resolve("proc/self/cgroup"), "");

        CgroupSystem system = CgroupSystem.detect(tmp.resolve("proc"), tmp);

        assertThat(system.mode()).isEqualTo(CgroupMode.NONE);
        assertThat(system.cpuHierarchy()).isEmpty();
    }

    @Test
    void shouldReadTheCpuCgroupOfAnyProcessAndThread() throws IOException {
        FakeCgroupTree tree = FakeCgroupTree.hybrid(tmp);
        tree.process(777, "2:cpuacct:/\n1:cpu:/schedpolicy-5-0\n0::/\n");
        Files.createDirectories(tree.proc.resolve("777/task/778"));
        Files.writeString(tree.proc.resolve("777/task/778/cgroup"), "1:cpu:/schedpolicy-5-1\n");
        CgroupSystem system = tree.system();

        assertThat(system.cpuCgroupOf(777)).isEqualTo("/schedpolicy-5-0");
        assertThat(system.cpuCgroupOfThread(777, 778)).isEqualTo("/schedpolicy-5-1");
    }

    @Test
    void shouldNameTheFileAndErrnoWhenAProcessIsGone() throws IOException {
        CgroupSystem system = FakeCgroupTree.hybrid(tmp).system();

        assertThatThrownBy(() -> system.cpuCgroupOf(99999))
                .isInstanceOf(CgroupException.class)
                .hasMessageContaining("99999/cgroup")
                .hasMessageContaining("no such file or directory (ENOENT)");
    }

    @Test
    void shouldFallBackToTheConfiguredParentWhenTheOwnCgroupHoldsProcessesOnV2() throws IOException {
        CgroupSystem system = FakeCgroupTree.pureV2(tmp).system();
        Path slice = tmp.resolve("sys/fs/cgroup/schedpolicy.slice");

        assertThat(system.defaultParent(Optional.of(slice))).isEqualTo(slice);
    }

    @Test
    void shouldSayWhatWasTriedAndHowToFixWhenNoParentIsUsable() throws IOException {
        FakeCgroupTree tree = FakeCgroupTree.hybrid(tmp);
        tree.kernfs.denied(tmp.resolve("sys/fs/cgroup/cpu"));
        CgroupSystem system = tree.system();

        assertThatThrownBy(() -> system.defaultParent(Optional.empty()))
                .isInstanceOf(CgroupException.class)
                .hasMessageContaining("tried " + tmp.resolve("sys/fs/cgroup/cpu"))
                .hasMessageContaining("permission denied (EACCES)")
                .hasMessageContaining("no fallback parent is configured")
                .hasMessageContaining("Delegate=yes");
    }
}
