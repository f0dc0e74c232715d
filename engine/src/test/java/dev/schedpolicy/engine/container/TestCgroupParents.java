package dev.schedpolicy.engine.container;

import dev.schedpolicy.engine.cgroup.CgroupSystem;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Private stand-ins for the machine-wide idle parent (or a plain parent), directly under the root of the cpu hierarchy
 * and named with this JVM's PID, so tests never touch the real {@code schedpolicy.idle}. Closing removes each in every
 * hierarchy, children first: a runtime's cgroupfs driver creates the parent's path in each v1 hierarchy a container
 * uses, and podman puts its conmon in a child of it.
 */
public final class TestCgroupParents implements AutoCloseable {
    private final List<Path> parents = new ArrayList<>();

    public Path create(final String name, final boolean idle) throws IOException {
        Path dir = CgroupSystem.detect().cpuDirOf("/").resolve(name + "-" + ProcessHandle.current().pid());
        Files.createDirectories(dir);
        parents.add(dir);
        if (idle) {
            Files.writeString(dir.resolve("cpu.idle"), "1");
        }
        return dir;
    }

    @Override
    public void close() throws IOException {
        for (Path parent : parents) {
            removeGroup(parent);
            removeEverywhere(parent.getFileName().toString());
        }
        parents.clear();
    }

    /** Removes the top-level group {@code name} in every hierarchy under /sys/fs/cgroup (and on v2 the one there). */
    void removeEverywhere(final String name) throws IOException {
        removeGroup(Path.of("/sys/fs/cgroup").resolve(name));
        try (Stream<Path> mounts = Files.list(Path.of("/sys/fs/cgroup"))) {
            for (Path mount : mounts.toList()) {
                removeGroup(mount.resolve(name));
            }
        }
    }

    /** rmdir of a cgroup: its children first; the kernel removes the control files with it. */
    private static void removeGroup(final Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return;
        }
        try (Stream<Path> children = Files.list(dir)) {
            for (Path child : children.filter(Files::isDirectory).toList()) {
                removeGroup(child);
            }
        }
        for (int attempt = 0; ; attempt++) {
            try {
                Files.delete(dir);
                return;
            } catch (IOException e) {
                if (attempt > 100) {
                    throw e;
                }
                try {
                    Thread.sleep(20); // EBUSY while the runtime's last task of the group is still exiting
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }
}
