package dev.schedpolicy.engine.launch;

import dev.schedpolicy.engine.cgroup.CgroupHierarchy;
import dev.schedpolicy.engine.cgroup.CgroupSystem;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

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
            try (Stream<Path> walk = Files.walk(root, 6)) {
                walk.filter(Files::isDirectory).filter(d -> d.getFileName().toString().startsWith(prefix)).forEach(found::add);
            }
        }
        return found;
    }
}
