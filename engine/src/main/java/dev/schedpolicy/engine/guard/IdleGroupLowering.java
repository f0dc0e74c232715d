package dev.schedpolicy.engine.guard;

import dev.schedpolicy.engine.cgroup.CgroupSystem;
import dev.schedpolicy.engine.cgroup.CpuCgroup;
import dev.schedpolicy.engine.cgroup.CpuLimits;
import dev.schedpolicy.engine.cgroup.ProcessHome;
import dev.schedpolicy.engine.proc.ProcFs;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The strongest lowering: competitors move into a cpu.idle group of the guard's own (the lowest weight on kernels
 * before 5.15, which have no cpu.idle) at the top of the cpu hierarchy,
 * a sibling of every other top-level group and autogroup, so they yield to the guarded step whatever group or session
 * it runs in (per-task classes act only within one task group). Each goes back to the groups it came from; children
 * born meanwhile follow their parent home. The group is made at the first lowering and removed at {@link #close}.
 */
public final class IdleGroupLowering implements Lowering {
    /** The groups of every guard of this JVM while they exist: a process in one of them is that guard's to put back. */
    private static final java.util.Set<String> GUARD_GROUPS = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final CgroupSystem system;
    private final ProcFs proc;
    private final Path parent;
    private final Optional<GuardHomes> homes;
    private CpuCgroup group;
    private boolean idle;
    private Optional<ProcessHome> anyHome = Optional.empty();

    public IdleGroupLowering(final CgroupSystem system, final ProcFs proc) {
        this(system, proc, system.cpuRoot(), Optional.empty());
    }

    /** One that writes down where each process came from in {@code homes}, so a guard killed meanwhile leaves nothing lowered. */
    public IdleGroupLowering(final CgroupSystem system, final ProcFs proc, final GuardHomes homes) {
        this(system, proc, system.cpuRoot(), Optional.of(homes));
    }

    IdleGroupLowering(final CgroupSystem system, final ProcFs proc, final Path parent, final Optional<GuardHomes> homes) {
        this.system = system;
        this.proc = proc;
        this.parent = parent;
        this.homes = homes;
    }

    @Override
    public synchronized String means() {
        if (group == null) {
            return "moved into an idle group of the guard's under " + parent;
        }
        return idle ? "moved into the cpu.idle group " + group.cgroupPath()
                : "moved into the lowest-weight group " + group.cgroupPath() + " (this kernel has no cpu.idle)";
    }

    @Override
    public synchronized Lowered lower(final Competitor competitor) {
        if (group == null) {
            // an earlier guard that was SIGKILLed left its group: removed here once empty (what it had written down
            // went home when this guard's lowerings were made: Lowerings.available)
            system.sweepStale(parent);
            try {
                group = system.createChild(parent, CpuLimits.none().withIdle(true));
                idle = true;
            } catch (RuntimeException noIdle) {
                // cpu.idle came with Linux 5.15; the lowest weight weighs a group about as SCHED_IDLE weighs a task
                try {
                    group = system.createChild(parent, CpuLimits.none().withWeight(CpuLimits.MIN_WEIGHT));
                } catch (RuntimeException e) {
                    e.addSuppressed(noIdle);
                    throw e;
                }
            }
            GUARD_GROUPS.add(group.cgroupPath());
        }
        ProcessHome home = system.homeOf(competitor.pid());
        if (home.cpuPath().equals(group.cgroupPath())) {
            throw new IllegalStateException(competitor + " is in the guard's group already");
        }
        if (GUARD_GROUPS.contains(home.cpuPath())) {
            throw new HeldElsewhere(competitor + " is held lowered by another guard");
        }
        // written down first: a guard killed between the two leaves a line for a process that never moved, which is harmless
        homes.ifPresent(h -> h.record(group.cgroupPath(), home));
        group.placeProcessCpuOnly(competitor.pid());
        anyHome = Optional.of(home);
        return new Moved(competitor, home);
    }

    /** Puts the process and those of its descendants that sit in the group (children born meanwhile) back home. */
    private synchronized void returnTree(final long pid, final ProcessHome home) {
        if (group == null) {
            return;
        }
        Set<Long> tree = new HashSet<>(proc.descendants(pid).orElse(List.of()));
        tree.add(pid);
        for (long p : group.pids()) {
            if (tree.contains(p)) {
                try {
                    system.returnHome(home, p);
                } catch (RuntimeException e) {
                    if (proc.stat(p).isPresent()) {
                        throw e;
                    }
                }
            }
        }
    }

    @Override
    public synchronized void close() {
        if (group == null) {
            return;
        }
        // a process whose lowered ancestor exited before it was restored still sits here: send it where they came from
        for (long p : group.pids()) {
            anyHome.ifPresent(home -> {
                try {
                    system.returnHome(home, p);
                } catch (RuntimeException e) {
                    // exited meanwhile
                }
            });
        }
        group.close();
        String closed = group.cgroupPath();
        GUARD_GROUPS.remove(closed);
        group = null;
        homes.ifPresent(h -> h.forget(closed));
    }

    private final class Moved implements Lowered {
        private final Competitor competitor;
        private final ProcessHome home;

        Moved(final Competitor competitor, final ProcessHome home) {
            this.competitor = competitor;
            this.home = home;
        }

        @Override
        public Competitor competitor() {
            return competitor;
        }

        @Override
        public void restore() {
            returnTree(competitor.pid(), home);
        }

        @Override
        public Optional<String> homeGroup() {
            return Optional.of(home.cpuPath());
        }
    }
}
