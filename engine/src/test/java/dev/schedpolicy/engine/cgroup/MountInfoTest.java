package dev.schedpolicy.engine.cgroup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class MountInfoTest {
    private static final Path ROOT = Path.of("/fake");

    @Test
    void shouldListOnlyCgroupMountsWithTheirVersionsAndControllers() {
        List<CgroupHierarchy> mounts = MountInfo.cgroupMounts(FakeCgroupTree.HYBRID_MOUNTINFO, ROOT);

        assertThat(mounts).extracting(h -> h.mountPoint().toString()).containsExactly(
                "/fake/sys/fs/cgroup/cpu", "/fake/sys/fs/cgroup/cpuacct", "/fake/sys/fs/cgroup/cpuset",
                "/fake/sys/fs/cgroup/memory", "/fake/sys/fs/cgroup/systemd", "/fake/sys/fs/cgroup/unified");
        assertThat(mounts.get(4).controllers()).containsExactly("name=systemd");
        assertThat(mounts.get(5).version()).isEqualTo(CgroupVersion.V2);
        assertThat(mounts.get(5).controllers()).isEmpty();
    }

    @Test
    void shouldDropMountFlagsFromV1ControllersAndNoteReadOnly() {
        List<CgroupHierarchy> mounts = MountInfo.cgroupMounts(FakeCgroupTree.DOCKER_V1_MOUNTINFO, ROOT);

        assertThat(mounts).hasSize(3).allSatisfy(h -> assertThat(h.readOnly()).isTrue());
        assertThat(mounts.get(0).controllers()).isEqualTo(Set.of("name=systemd"));
        assertThat(mounts.get(1).controllers()).isEqualTo(Set.of("cpu", "cpuacct"));
    }

    @Test
    void shouldUnescapeOctalSpacesInMountPoints() {
        List<CgroupHierarchy> mounts = MountInfo.cgroupMounts(
                "50 31 0:40 / /mnt/my\\040cgroups rw,relatime shared:7 - cgroup2 cgroup2 rw\n", Path.of("/"));

        assertThat(mounts).singleElement().extracting(CgroupHierarchy::mountPoint)
                .isEqualTo(Path.of("/mnt/my cgroups"));
    }

    @Test
    void shouldSkipMalformedLines() {
        assertThat(MountInfo.cgroupMounts("garbage\n\n1 2 3\n", ROOT)).isEmpty();
    }

    @Test
    void shouldMapCgroupPathsThroughAContainersMountRootBothWays() {
        CgroupHierarchy cpu = new CgroupHierarchy(CgroupVersion.V1, Path.of("/sys/fs/cgroup/cpu"), "/docker/ab",
                Set.of("cpu"), false);

        assertThat(cpu.dirOf("/docker/ab")).isEqualTo(Path.of("/sys/fs/cgroup/cpu"));
        assertThat(cpu.dirOf("/docker/ab/build/x")).isEqualTo(Path.of("/sys/fs/cgroup/cpu/build/x"));
        assertThat(cpu.cgroupPathOf(Path.of("/sys/fs/cgroup/cpu/build/x"))).isEqualTo("/docker/ab/build/x");
        assertThat(cpu.cgroupPathOf(Path.of("/sys/fs/cgroup/cpu"))).isEqualTo("/docker/ab");
    }

    @Test
    void shouldMapTheRootOfAFullMountToSlash() {
        CgroupHierarchy v2 = new CgroupHierarchy(CgroupVersion.V2, Path.of("/sys/fs/cgroup"), "/", Set.of(), false);

        assertThat(v2.cgroupPathOf(Path.of("/sys/fs/cgroup"))).isEqualTo("/");
        assertThat(v2.cgroupPathOf(Path.of("/sys/fs/cgroup/a.slice/b"))).isEqualTo("/a.slice/b");
        assertThat(v2.dirOf("/")).isEqualTo(Path.of("/sys/fs/cgroup"));
    }

    @Test
    void shouldRefuseACgroupOutsideTheMountedPart() {
        CgroupHierarchy cpu = new CgroupHierarchy(CgroupVersion.V1, Path.of("/sys/fs/cgroup/cpu"), "/docker/ab",
                Set.of("cpu"), true);

        assertThatThrownBy(() -> cpu.dirOf("/docker/abc")).isInstanceOf(CgroupException.class)
                .hasMessageContaining("outside the part /docker/ab");
        assertThatThrownBy(() -> cpu.cgroupPathOf(Path.of("/elsewhere"))).isInstanceOf(CgroupException.class)
                .hasMessageContaining("not inside");
    }
}
