package dev.schedpolicy.engine.bench;

import dev.schedpolicy.engine.proc.CpuTimes;
import dev.schedpolicy.engine.proc.Pressure;
import dev.schedpolicy.engine.proc.ProcFs;
import dev.schedpolicy.engine.proc.SchedStat;
import dev.schedpolicy.engine.proc.TaskStat;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** System-wide and per-process-tree counters read at the edges of a measuring window, all through {@link ProcFs}. */
final class SystemSampler {
    private static final long NS_PER_TICK = 1_000_000_000L / TaskStat.TICKS_PER_SECOND;
    private static final CpuTimes UNKNOWN = new CpuTimes(-1, -1);

    private final ProcFs procFs;

    SystemSampler(final ProcFs procFs) {
        this.procFs = procFs;
    }

    ProcFs procFs() {
        return procFs;
    }

    /** Idle (idle + iowait) and total CPU time of all CPUs; -1 each when /proc/stat cannot be read. */
    CpuTimes cpuTimes() {
        try {
            return procFs.cpuTimes().orElse(UNKNOWN);
        } catch (RuntimeException e) {
            return UNKNOWN;
        }
    }

    /** PSI "some" total for the CPU, microseconds, or -1 without PSI. */
    long psiCpuSomeUs() {
        try {
            return procFs.cpuPressure().map(Pressure::totalMicros).orElse(-1L);
        } catch (RuntimeException e) {
            return -1;
        }
    }

    /**
     * CPU time of a process tree in ns: the on-CPU time of every live thread of the process and of its live
     * descendants (schedstat, exact), plus the CPU of the children they have already reaped (cutime + cstime,
     * clock ticks). A descendant that ends and is reaped inside a window thus moves from its own schedstat to
     * its parent's cutime and stays counted (to within a tick); only a thread that ends while its process
     * lives on is lost, which is why the workload JVMs keep all their threads until the runner has read this.
     */
    long treeCpuNs(final long pid) {
        long[] t = new long[1];
        addProcess(pid, t);
        descendants(pid).forEach(d -> addProcess(d, t));
        return t[0];
    }

    /** The live descendants of a process: its children files where the kernel has them, else the JDK's scan. */
    private List<Long> descendants(final long pid) {
        try {
            Optional<List<Long>> tree = procFs.descendants(pid);
            if (tree.isPresent()) {
                return tree.get();
            }
        } catch (RuntimeException e) {
            return List.of(); // gone meanwhile
        }
        return ProcessHandle.of(pid).map(h -> h.descendants().map(ProcessHandle::pid).toList()).orElse(List.of());
    }

    private void addProcess(final long pid, final long[] t) {
        try {
            t[0] += procFs.schedStat(pid).onCpuNanos();
            procFs.stat(pid).ifPresent(st -> t[0] += st.reapedChildrenTicks() * NS_PER_TICK);
        } catch (RuntimeException e) {
            // the process ended meanwhile
        }
    }

    /**
     * Records the schedstat of every thread of a process tree, keeping each thread's highest reading: called
     * while a victim command runs, it sees the short-lived processes a wait-for-exit reading would miss.
     */
    void sampleTreeThreads(final long pid, final Map<Long, SchedStat> perThread) {
        List<Long> pids = new ArrayList<>();
        pids.add(pid);
        pids.addAll(descendants(pid));
        for (long p : pids) {
            try {
                for (long tid : procFs.threads(p)) {
                    procFs.threadSchedStat(p, tid).ifPresent(s -> perThread.merge(tid, s, SystemSampler::latest));
                }
            } catch (RuntimeException e) {
                // gone meanwhile
            }
        }
    }

    private static SchedStat latest(final SchedStat a, final SchedStat b) {
        return new SchedStat(Math.max(a.onCpuNanos(), b.onCpuNanos()),
                Math.max(a.runQueueWaitNanos(), b.runQueueWaitNanos()), Math.max(a.timeslices(), b.timeslices()));
    }

    /** This JVM's own CPU time in ns (all its threads, ended ones included), or -1 when the JDK cannot tell. */
    static long selfCpuNs() {
        java.lang.management.OperatingSystemMXBean os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
            return sun.getProcessCpuTime();
        }
        return -1;
    }

    /** cutime+cstime in ns from a /proc/PID/stat line: the CPU of the children the process has waited for. */
    static long reapedChildrenNs(final String line) {
        return TaskStat.parse(line).reapedChildrenTicks() * NS_PER_TICK;
    }

    /** utime+stime+cutime+cstime in ns from one /proc/PID/stat line as a shell read it. */
    static long cpuNsFromStatLine(final String line) {
        return TaskStat.parse(line).cpuWithReapedChildrenNanos();
    }
}
