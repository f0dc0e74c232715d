package dev.schedpolicy.engine.cgroup;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
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
        String below = below(dir).orElseThrow(() -> new CgroupException(dir + " is not inside the " + version
                + " cgroup hierarchy mounted at " + mountPoint)).toString();
        String base = "/".equals(mountRoot) ? "" : mountRoot;
        return below.isEmpty() ? ("/".equals(mountRoot) ? "/" : mountRoot) : base + "/" + below;
    }

    /**
     * Where {@code dir} lies below the mount point, or empty when it is not inside this hierarchy: the engine's one
     * containment check, so a parent it accepts is also one it can name the groups of. Symlinks are resolved in the
     * part of the path that exists: systemd's v1 layout links /sys/fs/cgroup/cpu to cpu,cpuacct, and a directory not
     * made yet under the link must still read as inside.
     */
    public Optional<Path> below(final Path dir) {
        Path real = real(dir);
        Path mount = real(mountPoint);
        return real.startsWith(mount) ? Optional.of(mount.relativize(real)) : Optional.empty();
    }

    private static Path real(final Path p) {
        Path existing = p.toAbsolutePath().normalize();
        Path rest = existing.getFileSystem().getPath("");
        while (existing != null) {
            try {
                return existing.toRealPath().resolve(rest);
            } catch (IOException | SecurityException e) {
                if (existing.getFileName() == null) {
                    break;
                }
                rest = existing.getFileName().resolve(rest);
                existing = existing.getParent();
            }
        }
        return p.toAbsolutePath().normalize();
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
