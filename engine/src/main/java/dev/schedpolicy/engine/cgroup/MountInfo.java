package dev.schedpolicy.engine.cgroup;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** Reads the cgroup mounts out of /proc/PID/mountinfo (format: proc(5)). */
final class MountInfo {
    /** v1 super options that are mount flags, not controllers. */
    private static final Set<String> NOT_CONTROLLERS = Set.of("rw", "ro", "noprefix", "clone_children", "xattr",
            "cpuset_v2_mode", "favordynmods", "nofavordynmods", "none");

    private MountInfo() {
    }

    /**
     * @param fsRoot prefix for every mount point, so that tests can point a real mountinfo text at a
     *               fake tree; "/" on a real system
     */
    static List<CgroupHierarchy> cgroupMounts(final String mountinfo, final Path fsRoot) {
        List<CgroupHierarchy> mounts = new ArrayList<>();
        for (String line : mountinfo.split("\n")) {
            parse(line, fsRoot, mounts);
        }
        return mounts;
    }

    private static void parse(final String line, final Path fsRoot, final List<CgroupHierarchy> mounts) {
        String[] fields = line.trim().split(" ");
        int separator = Arrays.asList(fields).indexOf("-");
        if (separator < 6 || fields.length < separator + 4) {
            return;
        }
        String fsType = fields[separator + 1];
        CgroupVersion version;
        if ("cgroup2".equals(fsType)) {
            version = CgroupVersion.V2;
        } else if ("cgroup".equals(fsType)) {
            version = CgroupVersion.V1;
        } else {
            return;
        }
        String root = unescape(fields[3]);
        Path mountPoint = underRoot(fsRoot, unescape(fields[4]));
        boolean readOnly = Arrays.asList(fields[5].split(",")).contains("ro");
        Set<String> controllers = new LinkedHashSet<>();
        if (version == CgroupVersion.V1) {
            for (String option : fields[separator + 3].split(",")) {
                if (!NOT_CONTROLLERS.contains(option) && !option.startsWith("release_agent=")) {
                    controllers.add(option);
                }
            }
        }
        mounts.add(new CgroupHierarchy(version, mountPoint, root, controllers, readOnly));
    }

    private static Path underRoot(final Path fsRoot, final String mountPoint) {
        String relative = mountPoint.replaceFirst("^/+", "");
        return relative.isEmpty() ? fsRoot : fsRoot.resolve(relative);
    }

    /** mountinfo escapes space, tab, newline and backslash as \ooo octal. */
    static String unescape(final String field) {
        StringBuilder out = new StringBuilder(field.length());
        for (int i = 0; i < field.length(); i++) {
            char c = field.charAt(i);
            if (c == '\\' && isOctal(field, i + 1)) {
                out.append((char) Integer.parseInt(field.substring(i + 1, i + 4), 8));
                i += 3;
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static boolean isOctal(final String s, final int from) {
        if (from + 3 > s.length()) {
            return false;
        }
        for (int i = from; i < from + 3; i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '7') {
                return false;
            }
        }
        return true;
    }
}
