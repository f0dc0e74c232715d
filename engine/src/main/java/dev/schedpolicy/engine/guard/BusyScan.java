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
 * <p>
 * The counters tick in 10 ms of CPU, so over a window too short for the share to show in whole ticks (a guard's second
 * scan comes 20 ms after its first, to help a step that waits from its first instruction), a process also counts as
 * busy when it was runnable ({@code R}) at both scans: a hog that shares its CPU with two others gets under 7 ms of it
 * in 20 ms and may show no tick at all.
 */
final class BusyScan {
    /** PF_KTHREAD (include/linux/sched.h): a kernel thread, whatever its PID says (PIDs differ inside a namespace). */
    static final long PF_KTHREAD = 0x00200000;

    private final ProcFs proc;
    private final double busyShare;
    private Map<Long, Long> lastTicks = new HashMap<>();
    private Map<Long, Boolean> lastRunnable = new HashMap<>();
    private long lastScanNanos;

    BusyScan(final ProcFs proc, final double busyShare) {
        this.proc = proc;
        this.busyShare = busyShare;
    }

    List<Competitor> scan(final Iterable<Long> candidates) {
        long now = System.nanoTime();
        double elapsedTicks = lastScanNanos == 0 ? 0 : (now - lastScanNanos) / 1e9 * TaskStat.TICKS_PER_SECOND;
        Map<Long, Long> ticks = new HashMap<>();
        Map<Long, Boolean> runnable = new HashMap<>();
        boolean shortWindow = elapsedTicks > 0 && elapsedTicks * busyShare < 1;
        List<Competitor> busy = new ArrayList<>();
        for (long pid : candidates) {
            Optional<TaskStat> stat = proc.stat(pid);
            if (stat.isEmpty() || (stat.get().flags() & PF_KTHREAD) != 0 || stat.get().isExiting()) {
                continue;
            }
            long t = stat.get().utimeTicks() + stat.get().stimeTicks();
            ticks.put(pid, t);
            boolean isRunnable = stat.get().state() == 'R';
            runnable.put(pid, isRunnable);
            Long before = lastTicks.get(pid);
            boolean byShare = before != null && elapsedTicks > 0 && (t - before) / elapsedTicks >= busyShare;
            boolean byState = shortWindow && isRunnable && lastRunnable.getOrDefault(pid, false);
            if (byShare || byState) {
                busy.add(new Competitor(pid, stat.get().comm()));
            }
        }
        lastTicks = ticks;
        lastRunnable = runnable;
        lastScanNanos = now;
        return List.copyOf(busy);
    }
}
