package dev.schedpolicy.engine.cgroup;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A fake /proc and cgroupfs in a temp dir, with mountinfo lines copied from real systems. */
final class FakeCgroupTree {
    /** The development machine's layout (hybrid): v1 controllers each on their own hierarchy, an empty v2 at unified. */
    static final String HYBRID_MOUNTINFO = """
            22 27 0:21 / /proc rw,relatime - proc proc rw
            23 27 0:22 / /sys rw,relatime - sysfs sysfs rw
            27 1 254:0 / / rw,relatime - ext4 /dev/vda rw,discard,resv_strict,resuid=65534,resgid=65534
            31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
            32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu
            33 31 0:30 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup rw,cpuacct
            34 31 0:31 / /sys/fs/cgroup/cpuset rw,relatime - cgroup cgroup rw,cpuset
            35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
            40 31 0:37 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,name=systemd
            41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
            """;
    static final String HYBRID_SELF_CGROUP = """
            9:name=systemd:/
            4:memory:/process_api/92212bf4b2bb03d57a697ecf666ffb9b
            3:cpuset:/
            2:cpuacct:/
            1:cpu:/
            0::/
            """;

    /** A current systemd distribution (Debian 12, Fedora): only the unified hierarchy. */
    static final String PURE_V2_MOUNTINFO = """
            22 1 259:2 / / rw,relatime shared:1 - ext4 /dev/nvme0n1p2 rw,errors=remount-ro
            23 22 0:21 / /proc rw,nosuid,nodev,noexec,relatime shared:12 - proc proc rw
            24 22 0:22 / /sys rw,nosuid,nodev,noexec,relatime shared:2 - sysfs sysfs rw
            26 24 0:24 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot
            """;
    static final String AGENT_SERVICE = "/system.slice/jenkins-agent.service";

    /** Docker on a v1 host without a cgroup namespace: only the container's part, read-only, cpu+cpuacct. */
    static final String DOCKER_V1_MOUNTINFO = """
            1087 1079 0:94 / / rw,relatime master:310 - overlay overlay rw,lowerdir=/var/lib/docker/overlay2/l/A:/var/lib/docker/overlay2/l/B
            1093 1087 0:97 / /sys ro,nosuid,nodev,noexec,relatime - sysfs sysfs ro
            1094 1093 0:98 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime - tmpfs tmpfs rw,mode=755
            1095 1094 0:28 /docker/4f2a0c8e1b7d /sys/fs/cgroup/systemd ro,nosuid,nodev,noexec,relatime master:11 - cgroup cgroup rw,xattr,name=systemd
            1097 1094 0:30 /docker/4f2a0c8e1b7d /sys/fs/cgroup/cpu,cpuacct ro,nosuid,nodev,noexec,relatime master:12 - cgroup cgroup rw,cpu,cpuacct
            1098 1094 0:31 /docker/4f2a0c8e1b7d /sys/fs/cgroup/memory ro,nosuid,nodev,noexec,relatime master:13 - cgroup cgroup rw,memory
            """;
    static final String DOCKER_V1_SELF_CGROUP = """
            4:cpu,cpuacct:/docker/4f2a0c8e1b7d
            3:memory:/docker/4f2a0c8e1b7d
            1:name=systemd:/docker/4f2a0c8e1b7d
            0::/system.slice/containerd.service
            """;

    /** Docker on a v2 host with its own cgroup namespace: the namespace root mounted read-only. */
    static final String DOCKER_V2_MOUNTINFO = """
            1351 1340 0:120 / / rw,relatime - overlay overlay rw,lowerdir=/var/lib/docker/overlay2/l/C
            1359 1351 0:123 / /sys ro,nosuid,nodev,noexec,relatime - sysfs sysfs ro
            1360 1359 0:27 / /sys/fs/cgroup ro,nosuid,nodev,noexec,relatime - cgroup2 cgroup rw,nsdelegate,memory_recursiveprot
            """;

    final Path root;
    final Path proc;
    final FakeKernfs kernfs;

    private FakeCgroupTree(final Path root, final FakeKernfs kernfs) {
        this.root = root;
        this.proc = root.resolve("proc");
        this.kernfs = kernfs;
    }

    static FakeCgroupTree hybrid(final Path tmp) throws IOException {
        Path cg = tmp.resolve("sys/fs/cgroup");
        FakeCgroupTree tree = new FakeCgroupTree(tmp,
                new FakeKernfs(cg.resolve("cpu"), cg.resolve("cpuacct"), cg.resolve("unified")));
        tree.self(HYBRID_MOUNTINFO, HYBRID_SELF_CGROUP);
        Files.createDirectories(cg.resolve("cpu"));
        tree.kernfs.populateV1Cpu(cg.resolve("cpu"));
        Files.createDirectories(cg.resolve("cpuacct"));
        FakeKernfs.put(cg.resolve("cpuacct"), "cgroup.procs", "1\n");
        FakeKernfs.put(cg.resolve("cpuacct"), "cpuacct.usage", "123456789");
        Files.createDirectories(cg.resolve("unified"));
        FakeKernfs.put(cg.resolve("unified"), "cgroup.controllers", "\n");
        FakeKernfs.put(cg.resolve("unified"), "cgroup.subtree_control", "\n");
        FakeKernfs.put(cg.resolve("unified"), "cgroup.procs", "1\n");
        return tree;
    }

    /** The agent runs in a systemd service that holds its processes; a delegated, empty slice is ready. */
    static FakeCgroupTree pureV2(final Path tmp) throws IOException {
        Path cg = tmp.resolve("sys/fs/cgroup");
        FakeCgroupTree tree = new FakeCgroupTree(tmp, new FakeKernfs(null, null, cg));
        tree.self(PURE_V2_MOUNTINFO, "0::" + AGENT_SERVICE + "\n");
        v2Group(cg, null, "cpuset cpu io memory pids", "cpu io memory pids", "1\n");
        v2Group(cg.resolve("system.slice"), "domain", "cpu io memory pids", "cpu memory", "");
        v2Group(cg.resolve("system.slice/jenkins-agent.service"), "domain", "cpu memory", "", "4242\n4250\n");
        v2Group(cg.resolve("schedpolicy.slice"), "domain", "cpu io memory pids", "", "");
        return tree;
    }

    static FakeCgroupTree dockerV1ReadOnly(final Path tmp) throws IOException {
        Path cpu = tmp.resolve("sys/fs/cgroup/cpu,cpuacct");
        FakeCgroupTree tree = new FakeCgroupTree(tmp, new FakeKernfs(cpu, null, null).readOnly(cpu));
        tree.self(DOCKER_V1_MOUNTINFO, DOCKER_V1_SELF_CGROUP);
        Files.createDirectories(cpu);
        tree.kernfs.populateV1Cpu(cpu);
        FakeKernfs.put(cpu, "cgroup.procs", "1\n7\n");
        return tree;
    }

    static FakeCgroupTree dockerV2ReadOnly(final Path tmp) throws IOException {
        Path cg = tmp.resolve("sys/fs/cgroup");
        FakeCgroupTree tree = new FakeCgroupTree(tmp, new FakeKernfs(null, null, cg).readOnly(cg));
        tree.self(DOCKER_V2_MOUNTINFO, "0::/\n");
        // a namespace root is a non-root cgroup underneath, so it has a cgroup.type
        v2Group(cg, "domain", "cpu io memory pids", "", "1\n");
        return tree;
    }

    static void v2Group(final Path dir, final String type, final String controllers, final String subtree,
            final String procs) throws IOException {
        Files.createDirectories(dir);
        if (type != null) {
            FakeKernfs.put(dir, "cgroup.type", type);
        }
        FakeKernfs.put(dir, "cgroup.controllers", controllers + "\n");
        FakeKernfs.put(dir, "cgroup.subtree_control", subtree + "\n");
        FakeKernfs.put(dir, "cgroup.procs", procs);
    }

    private void self(final String mountinfo, final String cgroup) throws IOException {
        Files.createDirectories(proc.resolve("self"));
        Files.writeString(proc.resolve("self/mountinfo"), mountinfo);
        Files.writeString(proc.resolve("self/cgroup"), cgroup);
    }

    void process(final long pid, final String cgroup) {
        try {
            Files.createDirectories(proc.resolve(Long.toString(pid)));
            Files.writeString(proc.resolve(pid + "/cgroup"), cgroup);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Path cgroupfs(final String relative) {
        return root.resolve("sys/fs/cgroup").resolve(relative);
    }

    CgroupSystem system() {
        return CgroupSystem.detect(proc, root, kernfs);
    }
}
