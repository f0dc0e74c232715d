package dev.schedpolicy.engine.guard;

import dev.schedpolicy.engine.proc.ProcFs;
import dev.schedpolicy.engine.proc.TaskStat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Who of a set of processes used at least a share of one CPU since the previous scan, from /proc/PID/stat. Kernel
 * threads and exiting processes never count. Memory is one entry per candidate of the last scan.
 */
final class BusyScan {
    /** PF_KTHREAD (include/linux/sched.h): a kernel thread, whatever its PID says (PIDs differ inside a namespace). */
    static final long PF_KTHREAD = 0x00200000;

    private final ProcFs proc;
    private final double busyShare;
    private Map<Long, Long> lastTicks = new HashMap<>();
    private long lastScanNanos;

    BusyScan(final ProcFs proc, final double busyShare) {
        this.proc = proc;
        this.busyShare = busyShare;
    }

    List<Competitor> scan(final Iterable<Long> candidates) {
        long now = System.nanoTime();
        double elapsedTicks = lastScanNanos == 0 ? 0 : (now - lastScanNanos) / 1e9 * TaskStat.TICKS_PER_SECOND;
        Map<Long, Long> ticks = new HashMap<>();
        List<Competitor> busy = new ArrayList<>();
        for (long pid : candidates) {
            Optional<TaskStat> stat = proc.stat(pid);
            if (stat.isEmpty() || (stat.get().flags() & PF_KTHREAD) != 0 || stat.get().isExiting()) {
                continue;
            }
            long t = stat.get().utimeTicks() + stat.get().stimeTicks();
            ticks.put(pid, t);
            Long before = lastTicks.get(pid);
            if (before != null && elapsedTicks > 0 && (t - before) / elapsedTicks >= busyShare) {
                busy.add(new Competitor(pid, stat.get().comm()));
            }
        }
        lastTicks = ticks;
        lastScanNanos = now;
        return List.copyOf(busy);
    }
}
