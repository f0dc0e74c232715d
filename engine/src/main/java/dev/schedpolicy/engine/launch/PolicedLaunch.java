package dev.schedpolicy.engine.launch;

import dev.schedpolicy.engine.cgroup.CgroupUsage;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A process started under a policy, with what the kernel reported for it. Closing it removes the
 * launch's cgroup, first killing anything still running inside it, so nothing is left behind.
 */
public class PolicedLaunch implements AutoCloseable {
    private final long pid;
    private final AppliedPolicy applied;
    private final List<String> warnings;
    private final CpuGroupLease group;

    PolicedLaunch(final long pid, final AppliedPolicy applied, final List<String> warnings, final CpuGroupLease group) {
        this.pid = pid;
        this.applied = applied;
        this.warnings = List.copyOf(warnings);
        this.group = group;
    }

    public long pid() {
        return pid;
    }

    public AppliedPolicy applied() {
        return applied;
    }

    /** Parts of the policy skipped or not confirmed under on-unsupported=warn. */
    public List<String> warnings() {
        return warnings;
    }

    public Optional<String> cgroupPath() {
        return group == null ? Optional.empty() : Optional.of(group.path());
    }

    boolean hasGroup() {
        return group != null;
    }

    public Optional<CgroupUsage> cgroupUsage() {
        return group == null ? Optional.empty() : group.usage();
    }

    /**
     * How long a CPU quota held the launch's group back so far (cpu.stat throttled time), in ns; empty without a group or
     * once it is gone. A measured launch keeps this apart from its run-queue wait.
     */
    public OptionalLong throttledNanos() {
        return cgroupUsage().map(u -> OptionalLong.of(u.throttledUsec() * 1000)).orElse(OptionalLong.empty());
    }

    /**
     * Removes the launch's group if nothing runs in it, killing nothing: a process put back meanwhile keeps it. True when
     * there is no group (any more).
     */
    public boolean closeIfEmpty() {
        return group == null || group.closeIfEmpty();
    }

    @Override
    public void close() {
        if (group != null) {
            group.close();
        }
    }
}
