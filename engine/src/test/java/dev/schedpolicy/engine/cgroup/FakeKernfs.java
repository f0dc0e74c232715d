package dev.schedpolicy.engine.cgroup;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Imitates what the kernel does on cgroupfs over a plain directory tree: mkdir populates the control files
 * of the hierarchy, rmdir refuses a populated group (EBUSY), cgroup.subtree_control takes "+cpu" and
 * refuses it in a non-root group with processes, and chosen subtrees fail like a read-only or foreign
 * cgroupfs.
 */
class FakeKernfs extends CgroupFiles {
    private final Path v1Cpu;
    private final Path v1Cpuacct;
    private final Path v2;
    private final Set<Path> readOnly = new HashSet<>();
    private final Set<Path> denied = new HashSet<>();
    private boolean withIdle = true;

    FakeKernfs(final Path v1Cpu, final Path v1Cpuacct, final Path v2) {
        this.v1Cpu = v1Cpu;
        this.v1Cpuacct = v1Cpuacct;
        this.v2 = v2;
    }

    FakeKernfs readOnly(final Path subtree) {
        readOnly.add(subtree);
        return this;
    }

    FakeKernfs denied(final Path subtree) {
        denied.add(subtree);
        return this;
    }

    /** A kernel before 5.15: no cpu.idle. */
    FakeKernfs withoutIdle() {
        withIdle = false;
        return this;
    }

    @Override
    void mkdir(final Path dir) throws IOException {
        refuseIfProtected(dir);
        Files.createDirectory(dir);
        // the kernel sees the directory, not the name it was given through (systemd's v1 links)
        populate(dir.toRealPath());
    }

    @Override
    void rmdir(final Path dir) throws IOException {
        refuseIfProtected(dir);
        Path procs = dir.resolve("cgroup.procs");
        if (Files.exists(procs) && !Files.readString(procs).isBlank()) {
            throw new FileSystemException(dir.toString(), null, "Device or resource busy");
        }
        try (Stream<Path> entries = Files.list(dir)) {
            for (Path entry : entries.toList()) {
                if (Files.isDirectory(entry)) {
                    throw new FileSystemException(dir.toString(), null, "Device or resource busy");
                }
            }
        }
        try (Stream<Path> entries = Files.walk(dir)) {
            for (Path entry : entries.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(entry);
            }
        }
    }

    @Override
    void write(final Path file, final String value) {
        if (file.getFileName().toString().equals("cgroup.subtree_control")) {
            writeSubtreeControl(file, value);
            return;
        }
        super.write(file, value);
    }

    private void writeSubtreeControl(final Path file, final String value) {
        Path group = file.getParent();
        boolean root = !Files.exists(group.resolve("cgroup.type"));
        if (!root && !super.read(group.resolve("cgroup.procs")).isBlank()) {
            throw CgroupFiles.failure("write '" + value + "' to", file,
                    new IOException("Device or resource busy"), "");
        }
        Set<String> enabled = new LinkedHashSet<>(List.of(super.read(file).trim().split("\\s+")));
        enabled.remove("");
        if (value.startsWith("+")) {
            enabled.add(value.substring(1));
        } else if (value.startsWith("-")) {
            enabled.remove(value.substring(1));
        }
        super.write(file, String.join(" ", enabled));
    }

    private void refuseIfProtected(final Path dir) throws IOException {
        for (Path p : readOnly) {
            if (dir.startsWith(p)) {
                throw new FileSystemException(dir.toString(), null, "Read-only file system");
            }
        }
        for (Path p : denied) {
            if (dir.startsWith(p)) {
                throw new AccessDeniedException(dir.toString());
            }
        }
    }

    private void populate(final Path dir) throws IOException {
        if (v1Cpu != null && dir.startsWith(v1Cpu)) {
            populateV1Cpu(dir);
        } else if (v1Cpuacct != null && dir.startsWith(v1Cpuacct)) {
            put(dir, "cgroup.procs", "");
            put(dir, "tasks", "");
            put(dir, "cpuacct.usage", "0");
        } else if (v2 != null && dir.startsWith(v2)) {
            populateV2(dir);
        }
    }

    void populateV1Cpu(final Path dir) throws IOException {
        put(dir, "cgroup.procs", "");
        put(dir, "tasks", "");
        put(dir, "cpu.cfs_period_us", "100000");
        put(dir, "cpu.cfs_quota_us", "-1");
        put(dir, "cpu.shares", "1024");
        put(dir, "cpu.stat", "nr_periods 0\nnr_throttled 0\nthrottled_time 0\nnr_bursts 0\nburst_time 0\n");
        if (withIdle) {
            put(dir, "cpu.idle", "0");
        }
    }

    void populateV2(final Path dir) throws IOException {
        put(dir, "cgroup.procs", "");
        put(dir, "cgroup.type", "domain");
        put(dir, "cgroup.subtree_control", "");
        String parentControl = Files.readString(dir.getParent().resolve("cgroup.subtree_control"));
        boolean cpu = List.of(parentControl.trim().split("\\s+")).contains("cpu");
        put(dir, "cgroup.controllers", cpu ? "cpu" : "");
        if (cpu) {
            put(dir, "cpu.max", "max 100000");
            put(dir, "cpu.weight", "100");
            if (withIdle) {
                put(dir, "cpu.idle", "0");
            }
            put(dir, "cpu.stat", "usage_usec 0\nuser_usec 0\nsystem_usec 0\nnr_periods 0\nnr_throttled 0\n"
                    + "throttled_usec 0\nnr_bursts 0\nburst_usec 0\n");
        } else {
            put(dir, "cpu.stat", "usage_usec 0\nuser_usec 0\nsystem_usec 0\n");
        }
    }

    static void put(final Path dir, final String name, final String content) throws IOException {
        Files.writeString(dir.resolve(name), content);
    }
}
