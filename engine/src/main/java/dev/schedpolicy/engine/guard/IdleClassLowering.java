package dev.schedpolicy.engine.guard;

import dev.schedpolicy.engine.linux.Kernel;
import dev.schedpolicy.engine.linux.SchedAttr;
import dev.schedpolicy.engine.linux.SyscallException;
import dev.schedpolicy.engine.proc.ProcFs;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Lowering where no cgroup of the guard's can be made: SCHED_IDLE on every thread of the competitor. It reaches only
 * competitors in the guarded step's own task group (per-task classes weigh tasks within one group), and only a
 * caller allowed to raise a thread back (root, CAP_SYS_NICE) may use it: an unprivileged thread can enter SCHED_IDLE
 * but never leave it, and the guard must put back what it lowered. Threads and child processes born while lowered
 * inherit SCHED_IDLE and get the competitor's recorded class back with it; realtime and already idle threads are left
 * as they are.
 */
public final class IdleClassLowering implements Lowering {
    static final int SCHED_OTHER = 0;
    static final int SCHED_BATCH = 3;
    static final int SCHED_IDLE = 5;

    private final Kernel kernel;
    private final ProcFs proc;

    public IdleClassLowering(final Kernel kernel, final ProcFs proc) {
        this.kernel = kernel;
        this.proc = proc;
    }

    /** Whether this caller could put a lowered thread back: root, or a kernel that lets it (checked by its euid). */
    public static boolean usableBy(final Kernel kernel) {
        return kernel.geteuid() == 0;
    }

    @Override
    public String means() {
        return "SCHED_IDLE on their threads";
    }

    @Override
    public Lowered lower(final Competitor competitor) {
        long pid = competitor.pid();
        Set<Long> before = new HashSet<>(proc.descendants(pid).orElse(List.of()));
        Map<Long, SchedAttr> recorded = new LinkedHashMap<>();
        List<Long> threads = proc.threads(pid);
        before.addAll(threads);
        try {
            for (long tid : threads) {
                SchedAttr attr = kernel.getSchedAttr((int) tid);
                if (attr.policy() != SCHED_OTHER && attr.policy() != SCHED_BATCH) {
                    continue;
                }
                recorded.put(tid, attr);
                // its nice kept beside SCHED_IDLE (which ignores it), so that a kernel that keeps nice across the
                // change and one that takes sched_nice both hold the same value to put back
                kernel.setSchedAttr((int) tid, new SchedAttr(SCHED_IDLE, 0, attr.nice(), 0, 0));
            }
        } catch (SyscallException e) {
            new Lowered0(competitor, recorded, before).restore();
            throw e;
        }
        if (recorded.isEmpty()) {
            throw new IllegalStateException(competitor + " has no thread of a normal or batch class to lower");
        }
        return new Lowered0(competitor, recorded, before);
    }

    @Override
    public void close() {
        // nothing of its own to remove
    }

    private final class Lowered0 implements Lowered {
        private final Competitor competitor;
        private final Map<Long, SchedAttr> recorded;
        /** The threads and child processes that existed when it was lowered: of these only the recorded go back. */
        private final Set<Long> existedBefore;

        Lowered0(final Competitor competitor, final Map<Long, SchedAttr> recorded, final Set<Long> existedBefore) {
            this.competitor = competitor;
            this.recorded = recorded;
            this.existedBefore = existedBefore;
        }

        @Override
        public Competitor competitor() {
            return competitor;
        }

        @Override
        public void restore() {
            if (recorded.isEmpty()) {
                return;
            }
            SchedAttr main = recorded.values().iterator().next();
            for (long tid : proc.threads(competitor.pid())) {
                if (recorded.containsKey(tid) || !existedBefore.contains(tid)) {
                    putBack(tid, recorded.getOrDefault(tid, main));
                }
            }
            for (long child : proc.descendants(competitor.pid()).orElse(List.of())) {
                if (!existedBefore.contains(child)) {
                    for (long tid : proc.threads(child)) {
                        putBack(tid, main);
                    }
                }
            }
        }

        /** Only a thread still idle is touched: one that changed its own class since is its own business. */
        private void putBack(final long tid, final SchedAttr attr) {
            try {
                if (kernel.getSchedAttr((int) tid).policy() == SCHED_IDLE) {
                    kernel.setSchedAttr((int) tid, new SchedAttr(attr.policy(), 0, attr.nice(), attr.priority(), attr.runtime()));
                    // nice again after the class: Linux 6.1 left nice 0 after sched_setattr(BATCH, nice 5) from
                    // SCHED_IDLE (kernel lab, bookworm); the engine's launches set it afterwards for the same reason
                    kernel.setNice((int) tid, attr.nice());
                }
            } catch (SyscallException e) {
                // the thread exited meanwhile
            }
        }
    }
}
