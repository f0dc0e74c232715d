package dev.schedpolicy.engine.cgroup;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/** cgroup v2 cpu controller: cpu.max, cpu.weight, cpu.idle, enabled through the parent's subtree_control. */
final class V2CpuController implements CpuController {
    private final CgroupFiles files;

    V2CpuController(final CgroupFiles files) {
        this.files = files;
    }

    @Override
    public CgroupVersion version() {
        return CgroupVersion.V2;
    }

    @Override
    public Optional<String> parentProblem(final Path parent) {
        if (!words(parent.resolve("cgroup.controllers")).contains("cpu")) {
            return Optional.of("the cpu controller is not available in " + parent + " (cgroup.controllers: '"
                    + files.read(parent.resolve("cgroup.controllers")).trim() + "'); the cgroup above it must"
                    + " enable cpu in its cgroup.subtree_control (with systemd: Delegate=yes on the agent's"
                    + " service, or run it with systemd-run -p Delegate=yes)");
        }
        // whether or not cpu is enabled there yet: a non-root cgroup holding processes cannot take process-holding
        // children on a real kernel (5.10 to 7.3 in the kernel lab, see docs/kernels.md)
        if (!isRoot(parent)) {
            List<Long> pids = files.readIds(parent.resolve("cgroup.procs"));
            if (!pids.isEmpty()) {
                return Optional.of(noInternalProcesses(parent, pids));
            }
        }
        return Optional.empty();
    }

    @Override
    public void prepareParent(final Path parent) {
        if (cpuEnabledForChildren(parent)) {
            return;
        }
        Path control = parent.resolve("cgroup.subtree_control");
        try {
            files.write(control, "+cpu");
        } catch (CgroupException e) {
            if (e.getCause() instanceof IOException io && ErrnoWords.is(io, "EBUSY")) {
                throw new CgroupException(e.getMessage() + "; " + noInternalProcesses(parent,
                        files.readIds(parent.resolve("cgroup.procs"))), control, e.getCause());
            }
            throw e;
        }
    }

    private boolean cpuEnabledForChildren(final Path parent) {
        return words(parent.resolve("cgroup.subtree_control")).contains("cpu");
    }

    /** Only the root is exempt from "no internal processes"; it alone has no cgroup.type. */
    private boolean isRoot(final Path parent) {
        return !files.exists(parent.resolve("cgroup.type"));
    }

    /**
     * The kernel's rule as it acts on cpu (a threaded controller): enabling cpu in a cgroup that holds processes is
     * accepted, but turns it into a thread root ("domain threaded") whose new children are "domain invalid" and
     * refuse processes with EOPNOTSUPP; with a domain controller (memory, io) the enabling itself fails with EBUSY.
     */
    private static String noInternalProcesses(final Path parent, final List<Long> pids) {
        return "cgroup v2 allows no processes in a cgroup whose children hold processes (no internal processes), and "
                + parent + " holds processes " + pids + ": enabling cpu there would make it a thread root whose new"
                + " children refuse processes (EOPNOTSUPP); move those processes into a leaf child first (e.g. "
                + parent.resolve("agent") + "), or give the agent an empty delegated parent (systemd DelegateSubgroup=,"
                + " docker/podman --cgroup-parent)";
    }

    private List<String> words(final Path file) {
        return Arrays.asList(files.read(file).trim().split("\\s+"));
    }

    @Override
    public String proofFile() {
        return "cpu.max";
    }

    @Override
    public void apply(final Path group, final CpuLimits limits) {
        OptionalLong quotaUs = limits.quotaUs();
        if (quotaUs.isPresent()) {
            files.write(group.resolve("cpu.max"), quotaUs.getAsLong() + " " + CpuLimits.PERIOD_US);
        }
        if (limits.weight().isPresent()) {
            files.write(group.resolve("cpu.weight"), Integer.toString(limits.weight().getAsInt()));
        }
        // Last: the kernel refuses a weight (EINVAL) on a group that is already idle.
        if (limits.idle()) {
            IdleFile.write(files, group.resolve("cpu.idle"));
        }
    }

    @Override
    public CpuLimits read(final Path group) {
        String[] max = files.read(group.resolve("cpu.max")).trim().split("\\s+");
        OptionalInt percent = "max".equals(max[0]) ? OptionalInt.empty()
                : OptionalInt.of((int) (Long.parseLong(max[0]) * 100 / Long.parseLong(max[1])));
        int weight = Integer.parseInt(files.read(group.resolve("cpu.weight")).trim());
        boolean idle = IdleFile.read(files, group);
        return new CpuLimits(percent, idle ? OptionalInt.empty() : OptionalInt.of(weight), idle);
    }

    @Override
    public void placeThread(final Path group, final long tid) {
        throw new CgroupUnsupportedException("cannot place thread " + tid + " alone into " + group
                + ": thread placement needs cgroup v1 (`tasks`); cgroup v2 moves whole processes only, so place"
                + " the process with park-and-release instead", group);
    }

    @Override
    public CgroupUsage usage(final Path group, final Optional<Path> accountingGroup) {
        Map<String, Long> stat = files.readKeyed(group.resolve("cpu.stat"));
        Long usage = stat.get("usage_usec");
        return new CgroupUsage(usage == null ? OptionalLong.empty() : OptionalLong.of(usage),
                stat.getOrDefault("nr_periods", 0L), stat.getOrDefault("nr_throttled", 0L),
                stat.getOrDefault("throttled_usec", 0L));
    }
}
