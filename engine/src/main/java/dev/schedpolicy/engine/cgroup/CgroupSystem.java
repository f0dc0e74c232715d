package dev.schedpolicy.engine.cgroup;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The machine's cgroup layout as one process sees it, and the entry point for cpu groups. Everything is
 * read from /proc/self/cgroup and /proc/self/mountinfo under a proc root, and mount points are taken under a
 * filesystem root, so tests can run the same code against a fake tree.
 */
public final class CgroupSystem {
    private final Path procRoot;
    private final CgroupFiles files;
    private final List<CgroupHierarchy> hierarchies;
    private final CgroupMode mode;
    private final Optional<CgroupHierarchy> cpu;
    private final Optional<CgroupHierarchy> cpuacct;

    private CgroupSystem(final Path procRoot, final CgroupFiles files, final List<CgroupHierarchy> hierarchies) {
        this.procRoot = procRoot;
        this.files = files;
        this.hierarchies = List.copyOf(hierarchies);
        this.mode = modeOf(hierarchies);
        String self = files.read(procRoot.resolve("self").resolve("cgroup"));
        this.cpu = findCpu(self);
        this.cpuacct = cpu.filter(h -> h.version() == CgroupVersion.V1).flatMap(h -> v1Mount("cpuacct", self));
    }

    public static CgroupSystem detect() {
        return detect(Path.of("/proc"), Path.of("/"));
    }

    /**
     * @param procRoot where /proc is (a fake one in tests)
     * @param fsRoot   prefix put before every mount point read from mountinfo ("/" for the real system)
     */
    public static CgroupSystem detect(final Path procRoot, final Path fsRoot) {
        return detect(procRoot, fsRoot, new CgroupFiles());
    }

    static CgroupSystem detect(final Path procRoot, final Path fsRoot, final CgroupFiles files) {
        String mountinfo = files.read(procRoot.resolve("self").resolve("mountinfo"));
        return new CgroupSystem(procRoot, files, MountInfo.cgroupMounts(mountinfo, fsRoot));
    }

    private static CgroupMode modeOf(final List<CgroupHierarchy> mounts) {
        boolean v1 = mounts.stream().anyMatch(h -> h.version() == CgroupVersion.V1
                && h.controllers().stream().anyMatch(c -> !c.startsWith("name=")));
        boolean v2 = mounts.stream().anyMatch(h -> h.version() == CgroupVersion.V2);
        if (v1 && v2) {
            return CgroupMode.HYBRID;
        }
        return v1 ? CgroupMode.V1 : v2 ? CgroupMode.V2 : CgroupMode.NONE;
    }

    /** A controller bound to a v1 hierarchy is not available in v2, so v1 wins when it has cpu. */
    private Optional<CgroupHierarchy> findCpu(final String selfCgroup) {
        Optional<CgroupHierarchy> v1 = v1Mount("cpu", selfCgroup);
        if (v1.isPresent()) {
            return v1;
        }
        return hierarchies.stream()
                .filter(h -> h.version() == CgroupVersion.V2)
                .filter(h -> files.exists(h.mountPoint().resolve("cgroup.controllers")))
                .filter(h -> List.of(files.read(h.mountPoint().resolve("cgroup.controllers")).trim().split("\\s+"))
                        .contains("cpu"))
                .findFirst();
    }

    /** Of several mounts of one hierarchy (bind mounts), the one that shows our own cgroup. */
    private Optional<CgroupHierarchy> v1Mount(final String controller, final String selfCgroup) {
        List<CgroupHierarchy> candidates = hierarchies.stream()
                .filter(h -> h.version() == CgroupVersion.V1 && h.controllers().contains(controller)).toList();
        Optional<String> own = ProcCgroupFile.v1PathOf(selfCgroup, controller);
        return candidates.stream()
                .filter(h -> own.isPresent() && ("/".equals(h.mountRoot()) || own.get().startsWith(h.mountRoot())))
                .findFirst()
                .or(() -> candidates.stream().findFirst());
    }

    public CgroupMode mode() {
        return mode;
    }

    public List<CgroupHierarchy> hierarchies() {
        return hierarchies;
    }

    /** The hierarchy holding the cpu controller: a v1 cpu mount, or v2 when its root lists cpu. */
    public Optional<CgroupHierarchy> cpuHierarchy() {
        return cpu;
    }

    private CgroupHierarchy requireCpu() {
        return cpu.orElseThrow(() -> new CgroupUnsupportedException("no cpu controller found: no cgroup v1"
                + " hierarchy is mounted with the cpu option and no cgroup v2 mount lists cpu in cgroup.controllers"
                + " (mode " + mode + "); cgroup CPU limits cannot be applied here"));
    }

    /** The cpu controller's file rules, for {@link IdleParent}. */
    CpuController cpuController() {
        return controller();
    }

    CgroupFiles files() {
        return files;
    }

    private CpuController controller() {
        return requireCpu().version() == CgroupVersion.V1 ? new V1CpuController(files)
                : new V2CpuController(files);
    }

    /** The cpu cgroup of a process as /proc/PID/cgroup shows it, e.g. "/" or "/schedpolicy-12-0". */
    public String cpuCgroupOf(final long pid) {
        return cpuCgroupIn(procRoot.resolve(Long.toString(pid)).resolve("cgroup"));
    }

    /** The cpu cgroup of a thread, from /proc/PID/task/TID/cgroup: on v1 threads can differ from their process. */
    public String cpuCgroupOfThread(final long pid, final long tid) {
        return cpuCgroupIn(procRoot.resolve(Long.toString(pid)).resolve("task").resolve(Long.toString(tid))
                .resolve("cgroup"));
    }

    public String ownCpuCgroup() {
        return cpuCgroupIn(procRoot.resolve("self").resolve("cgroup"));
    }

    /** The directory of our own cpu cgroup. */
    public Path ownCpuCgroupDir() {
        return requireCpu().dirOf(ownCpuCgroup());
    }

    /**
     * Moves one thread (v1 only) back into this process's own cpu cgroup, and into its own cpuacct cgroup where that
     * is a separate hierarchy: for a JDK helper thread born in a launch's group. Its own group, not the launch
     * group's parent: under a cgroup parent such as the machine-wide idle parent, a JVM thread left in the parent
     * would run idle for the JVM's life and keep the parent from being removed.
     */
    public void returnThreadHome(final long tid) {
        CgroupHierarchy hierarchy = requireCpu();
        if (hierarchy.version() != CgroupVersion.V1) {
            throw new CgroupException("only cgroup v1 moves single threads; " + hierarchy.version() + " moves processes",
                    hierarchy.dirOf("/"), null);
        }
        controller().placeThread(ownCpuCgroupDir(), tid);
        if (!hierarchy.controllers().contains("cpuacct") && cpuacct.isPresent()) {
            Path self = procRoot.resolve("self").resolve("cgroup");
            ProcCgroupFile.v1PathOf(files.read(self), "cpuacct").ifPresent(p ->
                    files.write(cpuacct.get().dirOf(p).resolve("tasks"), Long.toString(tid)));
        }
    }

    /** Where the process sits now, to put it back with {@link #returnHome} after moving it into a group of ours. */
    public ProcessHome homeOf(final long pid) {
        CgroupHierarchy hierarchy = requireCpu();
        Path procCgroup = procRoot.resolve(Long.toString(pid)).resolve("cgroup");
        Optional<String> acct = Optional.empty();
        if (hierarchy.version() == CgroupVersion.V1 && !hierarchy.controllers().contains("cpuacct") && cpuacct.isPresent()) {
            acct = ProcCgroupFile.v1PathOf(files.read(procCgroup), "cpuacct");
        }
        return new ProcessHome(pid, cpuCgroupIn(procCgroup), acct);
    }

    /**
     * Moves the process (all its threads) back to the groups {@code home} names, or, for {@code pid} other than the
     * home's own (a child born while it was away), there likewise. A group that is gone meanwhile is an error.
     */
    public void returnHome(final ProcessHome home, final long pid) {
        CgroupHierarchy hierarchy = requireCpu();
        files.write(hierarchy.dirOf(home.cpuPath()).resolve("cgroup.procs"), Long.toString(pid));
        if (home.cpuacctPath().isPresent() && cpuacct.isPresent()) {
            files.write(cpuacct.get().dirOf(home.cpuacctPath().get()).resolve("cgroup.procs"), Long.toString(pid));
        }
    }

    /** The root of the cpu hierarchy: a group made there is a sibling of every other top-level group and autogroup. */
    public Path cpuRoot() {
        return requireCpu().dirOf("/");
    }

    private String cpuCgroupIn(final Path procCgroup) {
        CgroupHierarchy hierarchy = requireCpu();
        String content = files.read(procCgroup);
        Optional<String> path = hierarchy.version() == CgroupVersion.V1
                ? ProcCgroupFile.v1PathOf(content, "cpu") : ProcCgroupFile.v2Path(content);
        return path.orElseThrow(() -> new CgroupException(procCgroup + " names no " + hierarchy.version()
                + " cgroup for the cpu controller", procCgroup, null));
    }

    /** The processes in the cpu cgroup {@code cgroupPath} (as /proc/PID/cgroup shows it); empty when it is gone. */
    public List<Long> pidsIn(final String cgroupPath) {
        Path procs = requireCpu().dirOf(cgroupPath).resolve("cgroup.procs");
        if (!files.exists(procs)) {
            return List.of();
        }
        try {
            return files.readIds(procs);
        } catch (CgroupException e) {
            return List.of(); // removed between the check and the read
        }
    }

    /**
     * A name no group of this process's had or will have (schedpolicy-PID-TOKEN-N), for a group that another program
     * makes and removes on our behalf; one it leaves behind after this process is gone is swept like ours.
     */
    public static String freshGroupName() {
        return GroupNames.next();
    }

    /**
     * Removes the group {@code cgroupPath} from every writable hierarchy that has it: a runtime given a group as a parent
     * makes it in each hierarchy and never removes it. True when it is gone from all of them; false while one still holds
     * a group or a process (a RUN step still running), so the caller tries again later.
     */
    public boolean removeEverywhere(final String cgroupPath) {
        boolean gone = true;
        for (CgroupHierarchy hierarchy : hierarchies) {
            Optional<Path> dir = writableDirOf(hierarchy, cgroupPath);
            if (dir.isEmpty() || !files.exists(dir.get())) {
                continue;
            }
            try {
                files.rmdir(dir.get());
            } catch (IOException e) {
                gone &= !files.exists(dir.get());
            }
        }
        return gone;
    }

    /**
     * Removes, in every writable hierarchy, the empty schedpolicy-* groups of dead makers right under {@code parentPath}:
     * the copies a runtime made of a group of ours in hierarchies the maker never touched, left when it was killed.
     */
    public List<Path> sweepStaleEverywhere(final String parentPath) {
        List<Path> removed = new ArrayList<>();
        for (CgroupHierarchy hierarchy : hierarchies) {
            writableDirOf(hierarchy, parentPath).filter(files::exists).ifPresent(dir -> removed.addAll(StaleGroups.sweep(files, dir)));
        }
        return removed;
    }

    private static Optional<Path> writableDirOf(final CgroupHierarchy hierarchy, final String cgroupPath) {
        if (hierarchy.readOnly()) {
            return Optional.empty();
        }
        try {
            return Optional.of(hierarchy.dirOf(cgroupPath));
        } catch (CgroupException e) {
            return Optional.empty(); // outside the part of this hierarchy that is mounted here
        }
    }

    /** The PID of the process that made the group {@code cgroupPath}, when it is one of ours (schedpolicy-PID-...). */
    public static OptionalLong creatorOf(final String cgroupPath) {
        Path dir = Path.of(cgroupPath);
        return GroupNames.isOurs(dir) ? GroupNames.creatorPid(dir) : OptionalLong.empty();
    }

    /** The directory of a cpu cgroup given as /proc/PID/cgroup shows it. */
    public Path cpuDirOf(final String cgroupPath) {
        return requireCpu().dirOf(cgroupPath);
    }

    /** The cgroup path (as /proc/PID/cgroup shows it) of a directory in the cpu hierarchy, e.g. "/schedpolicy.idle". */
    public String cpuPathOf(final Path dir) {
        return requireCpu().cgroupPathOf(dir);
    }

    /** The cpu limits a group holds now (quota, weight, idle), read from its control files. */
    public CpuLimits limitsOf(final Path dir) {
        return controller().read(dir);
    }

    /**
     * The nearest of {@code dir} and its ancestors in the cpu hierarchy whose cpu.idle reads 1: a group below an idle
     * group competes with the idle group's siblings as that idle group does.
     */
    public Optional<Path> idleAncestor(final Path dir) {
        CgroupHierarchy hierarchy = requireCpu();
        Optional<Path> below = hierarchy.below(dir);
        if (below.isEmpty()) {
            return Optional.empty();
        }
        // walked from the mount point, so a directory given through a link still meets its idle ancestors
        for (Path p = hierarchy.mountPoint().resolve(below.get()); p.startsWith(hierarchy.mountPoint()); p = p.getParent()) {
            if (IdleFile.read(files, p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /**
     * Tries for real whether cpu groups can be made under the parent: mkdir of a scratch child, a look for the
     * cpu control files in it, rmdir. Changes nothing that stays.
     */
    public ParentCheck checkParent(final Path parent) {
        CpuController controller = controller();
        Optional<String> outside = outsideHierarchy(parent);
        if (outside.isPresent()) {
            return ParentCheck.unusable(parent, outside.get());
        }
        if (!files.exists(parent)) {
            return ParentCheck.unusable(parent, parent + " does not exist: no such file or directory (ENOENT)");
        }
        Optional<String> problem = controller.parentProblem(parent);
        if (problem.isPresent()) {
            return ParentCheck.unusable(parent, problem.get());
        }
        Path scratch;
        try {
            scratch = GroupNames.mkdirUnique(files, parent);
        } catch (CgroupException e) {
            return ParentCheck.unusable(parent, e.getMessage());
        }
        boolean active = files.exists(scratch.resolve(controller.proofFile()));
        try {
            files.rmdir(scratch);
        } catch (IOException e) {
            return ParentCheck.unusable(parent, CgroupFiles.failure("remove scratch cgroup", scratch, e,
                    "it was created but cannot be removed").getMessage());
        }
        if (active) {
            return ParentCheck.usable(parent, "children get the cpu controller");
        }
        if (controller.version() == CgroupVersion.V2) {
            return ParentCheck.usable(parent, "cpu will be enabled in " + parent.resolve("cgroup.subtree_control")
                    + " when the first group is created");
        }
        return ParentCheck.unusable(parent, "a new child of " + parent + " has no " + controller.proofFile()
                + ": the cpu controller is not active there");
    }

    /**
     * A parent outside the cpu hierarchy's mount (a typo, /tmp) is refused in words before any file is read or
     * made under it: on v2 the controller's checks would otherwise fail on a missing cgroup.controllers, and on v1
     * a scratch directory would be made and removed there.
     */
    private Optional<String> outsideHierarchy(final Path parent) {
        CgroupHierarchy hierarchy = requireCpu();
        if (hierarchy.below(parent).isPresent()) {
            return Optional.empty();
        }
        return Optional.of(parent + " is not inside the " + hierarchy.version() + " cgroup hierarchy mounted at "
                + hierarchy.mountPoint() + ": give a directory under it (e.g. the machine-wide idle parent that"
                + " 'schedpolicy setup' makes)");
    }

    /**
     * Where groups go when the caller chose no parent: our own cpu cgroup when we may create children there,
     * else the fallback (e.g. a parent configured by an administrator). An explicitly chosen parent should
     * be passed to {@link #createChild} directly, which fails with words if it is unusable.
     */
    public Path defaultParent(final Optional<Path> fallback) {
        List<String> tried = new ArrayList<>();
        List<Path> candidates = new ArrayList<>();
        candidates.add(ownCpuCgroupDir());
        fallback.ifPresent(candidates::add);
        for (Path candidate : candidates) {
            ParentCheck check = checkParent(candidate);
            if (check.usable()) {
                return candidate;
            }
            tried.add(candidate + " (" + check.detail() + ")");
        }
        throw new CgroupException("no writable parent for cpu cgroups; tried " + String.join(" and ", tried)
                + (fallback.isEmpty() ? "; no fallback parent is configured" : "")
                + ". Fix: delegate a cgroup to the user running this (systemd: Delegate=yes; containers:"
                + " --cgroup-parent with a writable cgroup mount) and configure it as the parent");
    }

    /**
     * A fresh, empty child with the cpu controller active. A parent known to be unusable is refused before anything
     * is written: on v2 enabling cpu in a parent that holds processes would succeed and make it a thread root.
     */
    public CpuCgroup createChild(final Path parent) {
        CgroupHierarchy hierarchy = requireCpu();
        CpuController controller = controller();
        Optional<String> problem = outsideHierarchy(parent)
                .or(() -> files.exists(parent) ? controller.parentProblem(parent) : Optional.empty());
        if (problem.isPresent()) {
            throw new CgroupException("cannot create a cpu cgroup under " + parent + ": " + problem.get(), parent, null);
        }
        controller.prepareParent(parent);
        Path dir = GroupNames.mkdirUnique(files, parent);
        if (!files.exists(dir.resolve(controller.proofFile()))) {
            removeQuietly(dir);
            throw new CgroupException("created " + dir + " but it has no " + controller.proofFile()
                    + ": the cpu controller is not active under " + parent, dir, null);
        }
        Optional<Path> companion = companionFor(hierarchy, parent, dir);
        Optional<Path> accounting = hierarchy.version() == CgroupVersion.V2 ? Optional.empty()
                : hierarchy.controllers().contains("cpuacct") ? Optional.of(dir) : companion;
        return new CpuCgroup(controller, files, dir, hierarchy.cgroupPathOf(dir), companion, accounting);
    }

    /** A child with limits applied; removed again if they cannot be applied, so failures leave nothing. */
    public CpuCgroup createChild(final Path parent, final CpuLimits limits) {
        CpuCgroup group = createChild(parent);
        try {
            group.apply(limits);
            return group;
        } catch (RuntimeException e) {
            try {
                group.close();
            } catch (CgroupException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /** Same name in a separate v1 cpuacct hierarchy, under the cgroup with the parent's path; see CpuCgroup. */
    private Optional<Path> companionFor(final CgroupHierarchy hierarchy, final Path parent, final Path dir) {
        if (hierarchy.version() != CgroupVersion.V1 || hierarchy.controllers().contains("cpuacct")
                || cpuacct.isEmpty()) {
            return Optional.empty();
        }
        try {
            Path companion = cpuacct.get().dirOf(hierarchy.cgroupPathOf(parent)).resolve(dir.getFileName());
            files.mkdir(companion);
            return Optional.of(companion);
        } catch (IOException | CgroupException e) {
            return Optional.empty();
        }
    }

    private void removeQuietly(final Path dir) {
        try {
            files.rmdir(dir);
        } catch (IOException e) {
            // the sweeper removes it later: it is empty and named like ours
        }
    }

    /**
     * A group this engine made (named schedpolicy-*), given by its path as /proc shows it, that the caller holds no
     * lease on: one a Jenkins agent's earlier connection or a killed JVM made for a block that is ending now.
     *
     * @return empty when it is gone, not ours, or not a plain path inside the cpu hierarchy
     */
    public Optional<CpuCgroup> adopt(final String cgroupPath) {
        CgroupHierarchy hierarchy = requireCpu();
        if (!cgroupPath.startsWith("/") || List.of(cgroupPath.split("/")).contains("..")) {
            return Optional.empty();
        }
        Path dir = hierarchy.dirOf(cgroupPath);
        if (!GroupNames.isOurs(dir) || !files.exists(dir)) {
            return Optional.empty();
        }
        Optional<Path> companion = hierarchy.version() == CgroupVersion.V1 && !hierarchy.controllers().contains("cpuacct")
                ? cpuacct.map(h -> h.dirOf(cgroupPath)).filter(files::exists) : Optional.empty();
        Optional<Path> accounting = hierarchy.version() == CgroupVersion.V2 ? Optional.empty()
                : hierarchy.controllers().contains("cpuacct") ? Optional.of(dir) : companion;
        return Optional.of(new CpuCgroup(controller(), files, dir, cgroupPath, companion, accounting));
    }

    /**
     * Removes empty schedpolicy-* groups of dead creators under the parent (and the cpuacct companions on
     * v1); returns what was removed.
     */
    public List<Path> sweepStale(final Path parent) {
        CgroupHierarchy hierarchy = requireCpu();
        List<Path> removed = new ArrayList<>(StaleGroups.sweep(files, parent));
        if (hierarchy.version() == CgroupVersion.V1 && !hierarchy.controllers().contains("cpuacct")
                && cpuacct.isPresent()) {
            Path companionParent = cpuacct.get().dirOf(hierarchy.cgroupPathOf(parent));
            if (files.exists(companionParent)) {
                removed.addAll(StaleGroups.sweep(files, companionParent));
            }
        }
        return removed;
    }
}
