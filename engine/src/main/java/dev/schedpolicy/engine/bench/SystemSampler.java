package dev.schedpolicy.engine.bench;

import dev.schedpolicy.engine.proc.ProcFs;
import dev.schedpolicy.engine.proc.TaskStat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** System-wide and per-process-tree counters read at the edges of a measuring window. */
final class SystemSampler {
    private static final long NS_PER_TICK = 10_000_000L; // USER_HZ 100

    private final Path proc;
    private final ProcFs procFs;

    SystemSampler(final Path proc) {
        this.proc = proc;
        this.procFs = new ProcFs(proc);
    }

    /** Idle (idle + iowait) and total CPU time of all CPUs, in ns, from /proc/stat. */
    record CpuTimes(long idleNs, long totalNs) {
    }

    CpuTimes cpuTimes() {
        try {
            String first = Files.readAllLines(proc.resolve("stat")).get(0);
            String[] f = first.trim().split("\\s+");
            long total = 0;
            for (int i = 1; i < Math.min(f.length, 9); i++) {
                total += Long.parseLong(f[i]);
            }
            long idle = Long.parseLong(f[4]) + Long.parseLong(f[5]);
            return new CpuTimes(idle * NS_PER_TICK, total * NS_PER_TICK);
        } catch (IOException | RuntimeException e) {
            return new CpuTimes(-1, -1);
        }
    }

    /** PSI "some" total for the CPU, microseconds, or -1 without PSI. */
    long psiCpuSomeUs() {
        try {
            for (String line : Files.readAllLines(proc.resolve("pressure/cpu"))) {
                if (line.startsWith("some")) {
                    for (String part : line.split("\\s+")) {
                        if (part.startsWith("total=")) {
                            return Long.parseLong(part.substring(6));
                        }
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
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
        ProcessHandle.of(pid).ifPresent(h -> h.descendants().forEach(d -> addProcess(d.pid(), t)));
        return t[0];
    }

    private void addProcess(final long pid, final long[] t) {
        try {
            t[0] += procFs.schedStat(pid).onCpuNanos();
            procFs.stat(pid).ifPresent(st -> t[0] += st.reapedChildrenTicks() * NS_PER_TICK);
        } catch (RuntimeException e) {
            // the process ended meanwhile
        }
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
