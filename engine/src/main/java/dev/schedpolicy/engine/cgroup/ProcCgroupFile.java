package dev.schedpolicy.engine.cgroup;

import java.util.Arrays;
import java.util.Optional;
import java.util.Set;

/** Reads /proc/PID/cgroup lines "hierarchy-ID:controller-list:cgroup-path" (cgroups(7)). */
final class ProcCgroupFile {
    private ProcCgroupFile() {
    }

    /** The cgroup path of the v1 hierarchy that carries the controller. */
    static Optional<String> v1PathOf(final String content, final String controller) {
        for (String line : content.split("\n")) {
            String[] fields = line.split(":", 3);
            if (fields.length == 3 && !"0".equals(fields[0])
                    && Set.copyOf(Arrays.asList(fields[1].split(","))).contains(controller)) {
                return Optional.of(clean(fields[2]));
            }
        }
        return Optional.empty();
    }

    /** The cgroup path in the v2 hierarchy: the "0::" line. */
    static Optional<String> v2Path(final String content) {
        for (String line : content.split("\n")) {
            if (line.startsWith("0::")) {
                return Optional.of(clean(line.substring(3)));
            }
        }
        return Optional.empty();
    }

    /** A cgroup removed while the process still sits in it shows a " (deleted)" suffix. */
    private static String clean(final String path) {
        String trimmed = path.trim();
        return trimmed.endsWith(" (deleted)") ? trimmed.substring(0, trimmed.length() - 10) : trimmed;
    }
}
