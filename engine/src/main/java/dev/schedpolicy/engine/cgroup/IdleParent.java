package dev.schedpolicy.engine.cgroup;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The machine-wide idle parent: a group with cpu.idle=1 at the top of the cpu hierarchy, beside the groups of
 * services, containers and user sessions. A cpu.idle group is idle only against its siblings, so one made
 * under an agent's own cgroup does not reach other agents; under this parent it does. Made once by an
 * administrator ({@code schedpolicy setup}); agents then create their groups under it. On cgroup v2 the
 * directory and its cgroup.procs, cgroup.threads and cgroup.subtree_control are handed to the agent's user
 * (the files systemd's Delegate=yes hands over), so the agent can create children without root; moving a
 * process in still needs write access to the cgroup.procs of the common ancestor of where it is and where it
 * goes, which is why the status says so for a user whose own cgroup lies elsewhere.
 */
public final class IdleParent {
    public static final String NAME = "schedpolicy.idle";

    private final CgroupSystem system;
    private final Path dir;

    private IdleParent(final CgroupSystem system, final Path dir) {
        this.system = system;
        this.dir = dir;
    }

    /** The default place: {@value #NAME} at the top of the cpu hierarchy, e.g. /sys/fs/cgroup/cpu/schedpolicy.idle. */
    public static IdleParent of(final CgroupSystem system) {
        CgroupHierarchy h = system.cpuHierarchy().orElseThrow(() -> new CgroupUnsupportedException(
                "no cpu cgroup controller here (mode " + system.mode() + "): an idle parent needs one", null));
        return new IdleParent(system, h.dirOf("/").resolve(NAME));
    }

    public static IdleParent at(final CgroupSystem system, final Path dir) {
        return new IdleParent(system, dir);
    }

    public Path path() {
        return dir;
    }

    /**
     * Creates the group if needed, sets cpu.idle=1 and, with an owner, delegates it; safe to run again.
     *
     * @return what was done, one line per step
     */
    public List<String> setUp(final Optional<String> owner) {
        CgroupFiles files = system.files();
        CpuController controller = system.cpuController();
        List<String> steps = new ArrayList<>();
        if (controller.version() == CgroupVersion.V2) {
            controller.prepareParent(dir.getParent());
        }
        if (files.exists(dir)) {
            steps.add(dir + " exists");
        } else {
            try {
                files.mkdir(dir);
            } catch (IOException e) {
                throw CgroupFiles.failure("create the idle parent", dir, e, "run setup as root");
            }
            steps.add("created " + dir);
        }
        if (controller.version() == CgroupVersion.V2) {
            controller.prepareParent(dir); // +cpu for its children now, so a delegated user need not
        }
        if (IdleFile.read(files, dir)) {
            steps.add("cpu.idle is 1");
        } else {
            IdleFile.write(files, dir.resolve("cpu.idle"));
            steps.add("set cpu.idle = 1");
        }
        if (owner.isPresent()) {
            List<String> handed = controller.version() == CgroupVersion.V2
                    ? List.of("cgroup.procs", "cgroup.threads", "cgroup.subtree_control")
                    : List.of("tasks", "cgroup.procs");
            UserPrincipal user = lookup(owner.get());
            chown(dir, user);
            for (String f : handed) {
                if (Files.exists(dir.resolve(f))) {
                    chown(dir.resolve(f), user);
                }
            }
            steps.add("delegated to " + owner.get() + " (" + String.join(", ", handed) + ")");
        }
        return steps;
    }

    /** Removes the group; refuses while it holds groups or processes. */
    public List<String> remove() {
        CgroupFiles files = system.files();
        if (!files.exists(dir)) {
            return List.of(dir + " does not exist: nothing to remove");
        }
        List<Path> children = files.childDirs(dir);
        List<Long> procs = files.readIds(dir.resolve("cgroup.procs"));
        if (!children.isEmpty() || !procs.isEmpty()) {
            throw new CgroupException(dir + " is in use (" + children.size() + " groups, processes " + procs
                    + "); stop the builds that use it and run --remove again", dir, null);
        }
        try {
            files.rmdir(dir);
        } catch (IOException e) {
            throw CgroupFiles.failure("remove the idle parent", dir, e, "");
        }
        return List.of("removed " + dir);
    }

    /** What the probe reports: does it exist, is it idle, can this process make groups there and move into them. */
    public Status status(final int euid) {
        CgroupFiles files = system.files();
        if (!files.exists(dir)) {
            return new Status(dir.toString(), false, false, false, "not set up (an administrator runs 'schedpolicy setup')");
        }
        boolean idle = IdleFile.read(files, dir);
        ParentCheck check = system.checkParent(dir);
        if (!idle) {
            return new Status(dir.toString(), true, false, check.usable(), "cpu.idle is not 1: run 'schedpolicy setup' again");
        }
        if (!check.usable()) {
            return new Status(dir.toString(), true, true, false, check.detail());
        }
        if (system.cpuController().version() == CgroupVersion.V2 && euid != 0) {
            Path ancestor = commonAncestor(system.ownCpuCgroupDir(), dir);
            if (!Files.isWritable(ancestor.resolve("cgroup.procs"))) {
                return new Status(dir.toString(), true, true, false, "groups can be made there, but moving a process in needs"
                        + " write access to " + ancestor.resolve("cgroup.procs") + " (the common ancestor on cgroup v2):"
                        + " run the agent inside a delegated subtree, or use the systemd slice (docs/usage.md)");
            }
        }
        return new Status(dir.toString(), true, true, true, "usable: " + check.detail());
    }

    /**
     * @param path   where it is (or would be)
     * @param exists the directory exists
     * @param idle   its cpu.idle reads 1
     * @param usable this process can create groups under it and move processes into them
     * @param detail in words
     */
    public record Status(String path, boolean exists, boolean idle, boolean usable, String detail) {
        /** Whether builds can go there and be idle: it exists, its cpu.idle reads 1, and this process can use it. */
        public boolean works() {
            return exists && idle && usable;
        }
    }

    static Path commonAncestor(final Path a, final Path b) {
        Path p = a.normalize();
        while (p != null && !b.normalize().startsWith(p)) {
            p = p.getParent();
        }
        return p == null ? a.getRoot() : p;
    }

    private static UserPrincipal lookup(final String user) {
        try {
            return FileSystems.getDefault().getUserPrincipalLookupService().lookupPrincipalByName(user);
        } catch (IOException e) {
            throw new IllegalArgumentException("unknown user '" + user + "': give a login name or a numeric uid", e);
        }
    }

    private static void chown(final Path file, final UserPrincipal user) {
        try {
            Files.setOwner(file, user);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot hand " + file + " to " + user.getName() + ": " + e.getMessage(), e);
        }
    }
}
