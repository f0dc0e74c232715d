package dev.schedpolicy.engine.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** System-wide and per-process-tree counters read at the edges of a measuring window. */
final class SystemSampler {
    private static final long NS_PER_TICK = 10_000_000L; // USER_HZ 100

    private final Path proc;

    SystemSampler(final Path proc) {
        this.proc = proc;
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

    /** Summed schedstat (on-CPU ns, run-queue ns, slices) of a process, its threads and its live descendants. */
    long[] treeSchedstat(final long pid) {
        long[] t = new long[3];
        addProcess(pid, t);
        ProcessHandle.of(pid).ifPresent(h -> h.descendants().forEach(d -> addProcess(d.pid(), t)));
        return t;
    }

    private void addProcess(final long pid, final long[] t) {
        try (Stream<Path> tasks = Files.list(proc.resolve(Long.toString(pid)).resolve("task"))) {
            for (Path task : tasks.toList()) {
                try {
                    String[] s = Files.readString(task.resolve("schedstat")).trim().split("\\s+");
                    t[0] += Long.parseLong(s[0]);
                    t[1] += Long.parseLong(s[1]);
                    t[2] += Long.parseLong(s[2]);
                } catch (IOException | RuntimeException e) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException | RuntimeException e) {
            // the process ended meanwhile
        }
    }

    /** utime+stime+cutime+cstime in ns from one /proc/PID/stat line as a shell read it. */
    static long cpuNsFromStatLine(final String line) {
        String rest = line.substring(line.lastIndexOf(')') + 2);
        String[] f = rest.trim().split("\\s+");
        // rest starts at field 3 (state): utime is field 14 -> index 11
        List<Integer> idx = List.of(11, 12, 13, 14);
        long ticks = 0;
        for (int i : idx) {
            ticks += Long.parseLong(f[i]);
        }
        return ticks * NS_PER_TICK;
    }
}
