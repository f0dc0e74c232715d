package dev.schedpolicy.engine.bench.workload;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The workload's own threads' /proc/self/task/TID/schedstat (on-CPU ns, run-queue wait ns, time slices),
 * keyed by thread name. Kept dependency-free: workloads start as small separate JVMs.
 */
final class SelfStat {
    /** One thread's schedstat. */
    record Thread(String name, long onCpuNs, long runQueueNs, long slices) {
    }

    private SelfStat() {
    }

    static Map<Long, Thread> threads() {
        Map<Long, Thread> out = new LinkedHashMap<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            tasks.forEach(t -> {
                try {
                    String[] s = Files.readString(t.resolve("schedstat")).trim().split("\\s+");
                    String name = Files.readString(t.resolve("comm")).trim();
                    out.put(Long.parseLong(t.getFileName().toString()),
                            new Thread(name, Long.parseLong(s[0]), Long.parseLong(s[1]), Long.parseLong(s[2])));
                } catch (IOException | RuntimeException e) {
                    // the thread ended while we looked: it no longer counts
                }
            });
        } catch (IOException e) {
            // no /proc: report zeros
        }
        return out;
    }

    static long[] total(final Map<Long, Thread> threads) {
        long[] t = new long[3];
        for (Thread th : threads.values()) {
            t[0] += th.onCpuNs();
            t[1] += th.runQueueNs();
            t[2] += th.slices();
        }
        return t;
    }

    /** Totals of {@code later} minus {@code earlier}, thread by thread (threads born in between count fully). */
    static long[] delta(final Map<Long, Thread> earlier, final Map<Long, Thread> later) {
        return delta(earlier, later, "");
    }

    /** As {@link #delta(Map, Map)}, over the threads whose name starts with {@code namePrefix}. */
    static long[] delta(final Map<Long, Thread> earlier, final Map<Long, Thread> later, final String namePrefix) {
        long[] t = new long[3];
        later.forEach((tid, th) -> {
            if (!th.name().startsWith(namePrefix)) {
                return;
            }
            Thread e = earlier.get(tid);
            t[0] += th.onCpuNs() - (e == null ? 0 : e.onCpuNs());
            t[1] += th.runQueueNs() - (e == null ? 0 : e.runQueueNs());
            t[2] += th.slices() - (e == null ? 0 : e.slices());
        });
        return t;
    }
}
