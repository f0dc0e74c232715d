package dev.schedpolicy.engine.cgroup;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A child cpu cgroup we created. Closing it removes it once empty; it never kills on close, because a
 * process still running here may be work the caller wants to finish; {@link #killAll()} is explicit.
 *
 * <p>On v1 with cpuacct as a separate hierarchy (as on hosts mounting cpu and cpuacct apart) a companion
 * group of the same name is kept there, since cpu.stat on v1 has no CPU time and the benchmark needs it
 * per group, not per surviving process. Every placement goes into both. When that companion cannot be made
 * (cpuacct not mounted, or its parent not writable) the limits still apply and {@link #usage()} reports
 * the CPU time as absent rather than failing the launch over accounting.
 */
public final class CpuCgroup implements AutoCloseable {
    static final Duration CLOSE_WAIT = Duration.ofSeconds(2);
    static final Duration KILL_WAIT = Duration.ofSeconds(2);
    /**
     * A SIGKILLed task still has to be scheduled to exit, and in an idle group (or under an idle parent) it runs
     * only when no normal task wants the CPU: on the busy 2-CPU development machine (load average about 7) a
     * JVM in a cpu.idle group under the idle parent outlived 2 s after SIGKILL (IdleParentBenchITest).
     */
    static final Duration IDLE_KILL_WAIT = Duration.ofSeconds(15);
    private static final long POLL_MILLIS = 10;

    private final CpuController controller;
    private final CgroupFiles files;
    private final Path dir;
    private final String cgroupPath;
    private final Optional<Path> companion;
    private final Optional<Path> accounting;
    private boolean closed;

    CpuCgroup(final CpuController controller, final CgroupFiles files, final Path dir, final String cgroupPath,
            final Optional<Path> companion, final Optional<Path> accounting) {
        this.controller = controller;
        this.files = files;
        this.dir = dir;
        this.cgroupPath = cgroupPath;
        this.companion = companion;
        this.accounting = accounting;
    }

    /** The directory in the cpu hierarchy. */
    public Path path() {
        return dir;
    }

    /** The path as /proc/PID/cgroup shows it for the cpu controller, for comparing after placement. */
    public String cgroupPath() {
        return cgroupPath;
    }

    public String name() {
        return dir.getFileName().toString();
    }

    public CgroupVersion version() {
        return controller.version();
    }

    public void apply(final CpuLimits limits) {
        controller.apply(dir, limits);
    }

    /**
     * What the kernel holds now. The weight on v1 is computed back from cpu.shares. An idle group reports no
     * weight: the kernel replaces it by the idle weight (cpu.shares then reads 3) and restores it on leaving.
     */
    public CpuLimits readLimits() {
        return controller.read(dir);
    }

    /** Moves a whole process (all its threads) here. Its later children are born here. */
    public void placeProcess(final long pid) {
        place("cgroup.procs", pid, "process");
    }

    /**
     * Moves the process (all its threads) into this cpu group only, leaving it in its cpuacct group where that is a
     * hierarchy of its own (v1): a guard lowers a process for a while, and its step's accounting group must neither
     * look empty meanwhile (the step would count as ended and its group be removed) nor lose its CPU.
     */
    public void placeProcessCpuOnly(final long pid) {
        files.write(dir.resolve("cgroup.procs"), Long.toString(pid));
    }

    /** Moves one thread (v1 only); processes it spawns afterwards start here too. */
    public void placeThread(final long tid) {
        controller.placeThread(dir, tid);
        companion.ifPresent(acct -> files.write(acct.resolve("tasks"), Long.toString(tid)));
    }

    /**
     * Moves one thread (v1 only) out of this group into its parent, in the cpuacct companion likewise: for a
     * thread that was born here by accident when it cannot go back to its process's own group (see
     * {@link CgroupSystem#returnThreadHome}), as for a user who may write only a delegated subtree.
     */
    public void evictThread(final long tid) {
        controller.placeThread(dir.getParent(), tid);
        companion.ifPresent(acct -> files.write(acct.getParent().resolve("tasks"), Long.toString(tid)));
    }

    private void place(final String file, final long id, final String what) {
        try {
            files.write(dir.resolve(file), Long.toString(id));
            companion.ifPresent(acct -> files.write(acct.resolve(file), Long.toString(id)));
        } catch (CgroupException e) {
            if (e.getCause() instanceof IOException io && ErrnoWords.is(io, "ESRCH")) {
                throw new CgroupException(e.getMessage() + "; the " + what + " " + id + " has already exited",
                        e.file().orElse(null), e.getCause());
            }
            if (e.getCause() instanceof IOException io && ErrnoWords.is(io, "EACCES")
                    && controller.version() == CgroupVersion.V2) {
                throw new CgroupException(e.getMessage() + "; cgroup v2 lets a user move a process only when they"
                        + " may write cgroup.procs of the common ancestor of its current cgroup and " + dir
                        + ", so the caller must already run inside the delegated subtree it launches into",
                        e.file().orElse(null), e.getCause());
            }
            throw e;
        }
    }

    /**
     * Processes in the group (on v1 also a process with only some threads here); none once it is gone (a block
     * ended by another registry removed it, see CgroupSystem.adopt).
     */
    public List<Long> pids() {
        return files.exists(dir) ? files.readIds(dir.resolve("cgroup.procs")) : List.of();
    }

    public CgroupUsage usage() {
        return controller.usage(dir, accounting);
    }

    /**
     * SIGKILLs everything in the group, through cgroup.kill where the kernel has it (v2, 5.14+), else again and
     * again while forks race us, for up to 2 s (15 s in an idle-weighted group, see {@link #IDLE_KILL_WAIT}).
     */
    public void killAll() {
        killAll(idleWeighted() ? IDLE_KILL_WAIT : KILL_WAIT);
    }

    /** Whether this group or one of its ancestors has cpu.idle=1, so its tasks get the CPU only when it is free. */
    boolean idleWeighted() {
        long depth = java.util.Arrays.stream(cgroupPath.split("/")).filter(p -> !p.isEmpty()).count();
        Path d = dir;
        for (long i = 0; i < depth && d != null; i++, d = d.getParent()) {
            try {
                if (IdleFile.read(files, d)) {
                    return true;
                }
            } catch (CgroupException e) {
                return false; // unreadable: wait the usual time
            }
        }
        return false;
    }

    /**
     * Our own JVM is never killed: it appears here on v1 while one of its threads sits in the group to spawn
     * a child, and killing it would take the caller down.
     */
    public void killAll(final Duration bound) {
        long self = ProcessHandle.current().pid();
        long deadline = System.nanoTime() + bound.toNanos();
        Path kill = dir.resolve("cgroup.kill");
        if (controller.version() == CgroupVersion.V2 && files.exists(kill) && !pids().contains(self)) {
            // Linux 5.14+: one write kills the whole group at once, forks racing us included; the loop below
            // then only waits for it to empty (and remains the way on older kernels and on v1)
            files.write(kill, "1");
        }
        List<Long> others;
        do {
            others = new ArrayList<>(pids());
            others.remove(self);
            others.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
        } while (!others.isEmpty() && pause(deadline));
        if (!others.isEmpty()) {
            throw new CgroupException("cannot empty cgroup " + dir + ": processes " + others + " survived SIGKILL"
                    + " for " + bound.toMillis() + " ms (uninterruptible sleep, or owned by another user)", dir,
                    null);
        }
    }

    /**
     * Waits up to 2 s for the group to empty, then removes it. A group that stays busy is left in place
     * (removing it is impossible) and reported with its pids; the sweeper takes it once it empties.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        long deadline = System.nanoTime() + CLOSE_WAIT.toNanos();
        removeWhenEmpty(dir, deadline);
        if (companion.isPresent()) {
            removeWhenEmpty(companion.get(), deadline);
        }
        closed = true;
    }

    /**
     * Removes the group if nothing is in it, in one rmdir each, which the kernel refuses while a task is there: unlike a
     * look at cgroup.procs followed by {@link #killAll}, a process moved back in meanwhile (a guard putting a lowered
     * process home) stays, and so does its group. The companion goes first: a process lowered cpu-only still sits in it.
     * Idempotent; false when a task (or the kernel's lazy unlink just after the last one left) kept it.
     */
    public synchronized boolean removeIfEmpty() {
        if (closed) {
            return true;
        }
        if (companion.isPresent() && !rmdirIfEmpty(companion.get())) {
            return false;
        }
        if (!rmdirIfEmpty(dir)) {
            return false;
        }
        closed = true;
        return true;
    }

    private boolean rmdirIfEmpty(final Path group) {
        try {
            files.rmdir(group);
            return true;
        } catch (NoSuchFileException gone) {
            return true;
        } catch (IOException busy) {
            return false;
        }
    }

    private void removeWhenEmpty(final Path group, final long deadline) {
        while (true) {
            List<Long> left = files.exists(group) ? files.readIds(group.resolve("cgroup.procs")) : List.of();
            if (left.isEmpty()) {
                try {
                    files.rmdir(group);
                    return;
                } catch (NoSuchFileException gone) {
                    return;
                } catch (IOException e) {
                    // EBUSY right after the last task exits: the kernel unlinks it lazily; retry in the loop
                    if (!pause(deadline)) {
                        throw CgroupFiles.failure("remove cgroup", group, e, "");
                    }
                }
            } else if (!pause(deadline)) {
                throw new CgroupException("cgroup " + group + " still holds processes " + left + " after "
                        + CLOSE_WAIT.toMillis() + " ms, so it was left in place; kill them (CpuCgroup.killAll)"
                        + " and CgroupSystem.sweepStale removes it once empty", group, null);
            }
        }
    }

    /**
     * Sleeps one poll interval; false when the deadline has passed. An interrupt does not cut the wait short:
     * the waits are bounded, and the threads that clean up are the ones interrupted (remoting interrupts an
     * agent's running calls when its connection drops), so giving up left the group behind. The interrupt is
     * kept for the caller.
     */
    private static boolean pause(final long deadline) {
        if (System.nanoTime() >= deadline) {
            return false;
        }
        boolean interrupted = Thread.interrupted();
        long wakeAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(POLL_MILLIS);
        try {
            for (long left = POLL_MILLIS; left > 0; left = TimeUnit.NANOSECONDS.toMillis(wakeAt - System.nanoTime())) {
                try {
                    Thread.sleep(left);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        return true;
    }

    @Override
    public String toString() {
        return "CpuCgroup[" + dir + (accounting.isEmpty() ? ", no CPU time accounting" : "") + "]";
    }
}
