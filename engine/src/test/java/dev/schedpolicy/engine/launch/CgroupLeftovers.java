package dev.schedpolicy.engine.launch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Finds the cgroups an engine process made (schedpolicy-PID-N), wherever they are in the v1 cpu hierarchies. */
final class CgroupLeftovers {
    private static final Path[] HIERARCHIES = {Path.of("/sys/fs/cgroup/cpu"), Path.of("/sys/fs/cgroup/cpuacct")};

    private CgroupLeftovers() {
    }

    static List<Path> groupsOf(final long creator) throws IOException {
        String prefix = "schedpolicy-" + creator + "-";
        List<Path> found = new ArrayList<>();
        for (Path root : HIERARCHIES) {
            if (Files.isDirectory(root)) {
                try (Stream<Path> walk = Files.walk(root, 6)) {
                    walk.filter(Files::isDirectory).filter(d -> d.getFileName().toString().startsWith(prefix)).forEach(found::add);
                }
            }
        }
        return found;
    }
}
