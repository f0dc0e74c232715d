package dev.schedpolicy.engine.launch;

import dev.schedpolicy.engine.cgroup.CgroupHierarchy;
import dev.schedpolicy.engine.cgroup.CgroupSystem;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds the cgroups an engine process made (schedpolicy-PID-N) in every mounted hierarchy (v1 cpu and cpuacct,
 * however co-mounted, and v2), walked from its mount point: systemd's v1 layout makes /sys/fs/cgroup/cpu a
 * symlink, which Files.walk would not enter, and v2 has no such directory at all.
 */
final class CgroupLeftovers {
    private CgroupLeftovers() {
    }

    static List<Path> groupsOf(final long creator) throws IOException {
        String prefix = "schedpolicy-" + creator + "-";
        List<Path> found = new ArrayList<>();
        List<Path> roots = CgroupSystem.detect().hierarchies().stream().map(CgroupHierarchy::mountPoint).toList();
        if (roots.isEmpty()) {
            throw new IllegalStateException("no cgroup hierarchy is mounted: nothing to search for leftover groups");
        }
        for (Path root : roots) {
            // other engines on a shared machine (other test runs, a live Jenkins) create and remove their own groups
            // while we walk: a directory that vanishes under us is not ours to report, so it is passed over
            Files.walkFileTree(root, java.util.Set.of(), 6, new java.nio.file.SimpleFileVisitor<>() {
                @Override
                public java.nio.file.FileVisitResult preVisitDirectory(final Path d,
                        final java.nio.file.attribute.BasicFileAttributes attrs) {
                    if (d.getFileName() != null && d.getFileName().toString().startsWith(prefix)) {
                        found.add(d);
                    }
                    return java.nio.file.FileVisitResult.CONTINUE;
                }

                @Override
                public java.nio.file.FileVisitResult visitFile(final Path f,
                        final java.nio.file.attribute.BasicFileAttributes attrs) {
                    // at the depth limit directories arrive here, as Files.walk(root, 6) listed them too
                    return attrs.isDirectory() ? preVisitDirectory(f, attrs) : java.nio.file.FileVisitResult.CONTINUE;
                }

                @Override
                public java.nio.file.FileVisitResult visitFileFailed(final Path file, final IOException e)
                        throws IOException {
                    if (e instanceof java.nio.file.NoSuchFileException) {
                        return java.nio.file.FileVisitResult.CONTINUE;
                    }
                    throw e;
                }
            });
        }
        return found;
    }
}
