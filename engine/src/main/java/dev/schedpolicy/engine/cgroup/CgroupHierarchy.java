package dev.schedpolicy.engine.cgroup;

import java.nio.file.Path;
import java.util.Set;

/**
 * One mounted cgroup hierarchy, from a line of mountinfo.
 *
 * @param version     v1 or v2
 * @param mountPoint  where it is mounted, already under the configured filesystem root
 * @param mountRoot   the cgroup shown at the mount point (mountinfo field 4): "/" normally, the container's
 *                    own cgroup when a container runtime bind-mounts only its part of the tree
 * @param controllers v1: the controllers from the super options (cpu, cpuacct, name=systemd...);
 *                    v2: empty, the controllers live in cgroup.controllers
 * @param readOnly    mounted read-only (typical inside containers)
 */
public record CgroupHierarchy(CgroupVersion version, Path mountPoint, String mountRoot, Set<String> controllers,
        boolean readOnly) {

    public CgroupHierarchy {
        controllers = Set.copyOf(controllers);
    }

    /** The directory of a cgroup given as /proc/PID/cgroup shows it. */
    public Path dirOf(final String cgroupPath) {
        String relative = stripMountRoot(cgroupPath);
        Path dir = mountPoint;
        for (String part : relative.split("/")) {
            if (!part.isEmpty()) {
                dir = dir.resolve(part);
            }
        }
        return dir;
    }

    /** The cgroup path (as /proc/PID/cgroup would show it) of a directory in this hierarchy. */
    public String cgroupPathOf(final Path dir) {
        Path normalized = dir.normalize();
        if (!normalized.startsWith(mountPoint)) {
            throw new CgroupException(dir + " is not inside the " + version + " cgroup hierarchy mounted at "
                    + mountPoint);
        }
        String below = mountPoint.relativize(normalized).toString();
        String base = "/".equals(mountRoot) ? "" : mountRoot;
        return below.isEmpty() ? ("/".equals(mountRoot) ? "/" : mountRoot) : base + "/" + below;
    }

    private String stripMountRoot(final String cgroupPath) {
        if ("/".equals(mountRoot)) {
            return cgroupPath;
        }
        if (cgroupPath.equals(mountRoot) || cgroupPath.startsWith(mountRoot + "/")) {
            return cgroupPath.substring(mountRoot.length());
        }
        throw new CgroupException("cgroup " + cgroupPath + " lies outside the part " + mountRoot
                + " of the hierarchy that is mounted at " + mountPoint
                + "; mount the whole hierarchy or use a cgroup namespace");
    }
}
