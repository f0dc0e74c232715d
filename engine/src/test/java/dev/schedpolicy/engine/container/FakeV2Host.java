package dev.schedpolicy.engine.container;

import dev.schedpolicy.engine.cgroup.CgroupSystem;
import dev.schedpolicy.engine.proc.ProcFs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A cgroup v2 host in a temp dir (a systemd distribution: one unified hierarchy), with the files a placement and a
 * read-back look at: cgroup.controllers, cpu.max, cpu.weight, cpu.idle, and /proc/PID/{cgroup,stat,status}. The
 * cgroupfs driver's container groups are directories named after the id under --cgroup-parent; systemd's are
 * docker-ID.scope in a slice.
 */
final class FakeV2Host {
    static final String MOUNTINFO = """
            22 1 259:2 / / rw,relatime shared:1 - ext4 /dev/nvme0n1p2 rw,errors=remount-ro
            23 22 0:21 / /proc rw,nosuid,nodev,noexec,relatime shared:12 - proc proc rw
            26 24 0:24 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot
            """;

    final Path root;
    final Path cgroup;
    final Path proc;

    FakeV2Host(final Path tmp) throws IOException {
        this.root = tmp;
        this.cgroup = tmp.resolve("sys/fs/cgroup");
        this.proc = tmp.resolve("proc");
        put(proc.resolve("self/mountinfo"), MOUNTINFO);
        put(proc.resolve("self/cgroup"), "0::/system.slice/jenkins-agent.service\n");
        put(cgroup.resolve("cgroup.controllers"), "cpuset cpu io memory pids\n");
        put(cgroup.resolve("cgroup.subtree_control"), "cpu io memory pids\n");
        group("/system.slice/jenkins-agent.service", "max 100000", 100, false);
    }

    CgroupSystem system() {
        return CgroupSystem.detect(proc, root);
    }

    ProcFs procFs() {
        return new ProcFs(proc);
    }

    /** A non-root group with its cpu files; returns its directory. */
    Path group(final String path, final String cpuMax, final int weight, final boolean idle) throws IOException {
        Path dir = cgroup.resolve(path.substring(1));
        put(dir.resolve("cgroup.type"), "domain\n");
        put(dir.resolve("cgroup.controllers"), "cpu io memory pids\n");
        put(dir.resolve("cpu.max"), cpuMax + "\n");
        put(dir.resolve("cpu.weight"), weight + "\n");
        put(dir.resolve("cpu.idle"), (idle ? "1" : "0") + "\n");
        return dir;
    }

    /** A process in cgroup {@code path} whose parent is {@code ppid}, allowed on {@code cpus}. */
    void process(final long pid, final long ppid, final String path, final String cpus) throws IOException {
        process(pid, ppid, path, cpus, "sh");
    }

    /** @param comm the process's name as /proc/PID/stat gives it ("runc:[2:INIT]" for a runtime's init) */
    void process(final long pid, final long ppid, final String path, final String cpus, final String comm) throws IOException {
        Path dir = proc.resolve(Long.toString(pid));
        put(dir.resolve("cgroup"), "0::" + path + "\n");
        StringBuilder stat = new StringBuilder(pid + " (" + comm + ") S " + ppid);
        for (int field = 5; field <= 52; field++) {
            stat.append(" 0");
        }
        put(dir.resolve("stat"), stat + "\n");
        put(dir.resolve("status"), "Name:\t" + comm + "\nCpus_allowed_list:\t" + cpus + "\n");
    }

    static void put(final Path file, final String text) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }
}
