package dev.schedpolicy.engine.bench.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * Fixed-work CPU victim ("the test job"): {@code --workers N --units U} runs U kernel units on each of N
 * threads and reports wall time of the work, CPU, run-queue wait and per-thread schedstat. With
 * {@code --forks K} every worker also starts K short-lived child processes, evenly spread over its work and
 * each waited for, the way a test job forks compilers, shells and test JVMs' helpers.
 * {@code --calibrate MS} instead prints how many units one thread does per second, unloaded.
 * Also serves as the thread eater: per-thread steps/ms and average time slice are in the result.
 */
public final class CpuVictim {
    private static final String WORKER_PREFIX = "victim-w";

    private CpuVictim() {
    }

    public static void main(final String[] argv) throws Exception {
        Args args = new Args(argv);
        WorkUnit.spin(400); // warm-up: get the work unit compiled before anything is measured
        if (args.has("calibrate")) {
            long ms = args.getLong("calibrate", 500);
            long start = System.nanoTime();
            long units = 0;
            while (System.nanoTime() - start < ms * 1_000_000L) {
                WorkUnit.spin(10);
                units += 10;
            }
            double rate = units * 1e9 / (System.nanoTime() - start);
            Protocol.result("{\"workload\":\"calibrate\",\"unitsPerSecond\":" + rate + "}");
            return;
        }
        int workers = (int) args.getLong("workers", 1);
        long units = args.getLong("units", 1000);
        long maxNs = args.getLong("max-ms", Long.MAX_VALUE / 2_000_000L) * 1_000_000L;
        long forks = args.getLong("forks", 0);
        long forkEvery = forks > 0 ? Math.max(1, units / forks) : Long.MAX_VALUE;
        if (forks > 0) {
            ShortLived.run(); // warm-up: the JDK's process machinery loaded before READY
        }
        warmUpReporting();
        if (!Protocol.readyAndWait()) {
            return;
        }
        Map<Long, SelfStat.Thread> before = SelfStat.threads();
        long start = System.nanoTime();
        CountDownLatch done = new CountDownLatch(workers);
        CountDownLatch release = new CountDownLatch(1);
        long[] ends = new long[workers];
        long[] doneUnits = new long[workers];
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < workers; w++) {
            int id = w;
            Thread t = new Thread(() -> {
                // fixed work, but a starved victim stops at max-ms and reports the units it did: the rate stays exact
                long u = 0;
                long nextFork = forkEvery;
                while (u < units && System.nanoTime() - start < maxNs) {
                    long step = Math.min(Math.min(8, units - u), Math.max(1, nextFork - u));
                    WorkUnit.spin(step);
                    u += step;
                    if (u >= nextFork) {
                        ShortLived.run();
                        nextFork += forkEvery;
                    }
                }
                doneUnits[id] = u;
                ends[id] = System.nanoTime();
                done.countDown();
                try {
                    release.await(); // stay alive so this thread's schedstat can still be read
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, WORKER_PREFIX + w);
            threads.add(t);
            t.start();
        }
        done.await();
        long workNs = System.nanoTime() - start;
        Map<Long, SelfStat.Thread> after = SelfStat.threads();
        // the work threads only: the JVM's main thread sleeps in done.await() all along, yet in 6 of 98 runs beside
        // cpu.idle loopers its schedstat gained the whole window as run-queue wait (docs/results.md)
        Protocol.result(resultJson(workers, units, doneUnits, ends, start, workNs,
                SelfStat.delta(before, after, WORKER_PREFIX), after));
        // the workers stay alive until the runner has read this process's CPU time from /proc
        Protocol.awaitExit();
        release.countDown();
        for (Thread t : threads) {
            t.join();
        }
    }

    /**
     * Runs the result path once before {@code READY} (thread start, /proc reads, JSON building), so its class
     * loading and compilation do not land inside the measuring window of the real run.
     */
    private static void warmUpReporting() throws InterruptedException {
        CountDownLatch latch = new CountDownLatch(1);
        Thread t = new Thread(latch::countDown, "warm-up"); // not a WORKER_PREFIX name
        t.start();
        latch.await();
        t.join();
        Map<Long, SelfStat.Thread> now = SelfStat.threads();
        Map<Long, SelfStat.Thread> fake = new java.util.LinkedHashMap<>(now);
        fake.put(-1L, new SelfStat.Thread(WORKER_PREFIX + 0, 1, 1, 1));
        if (resultJson(1, 1, new long[] {1}, new long[] {1}, 0, 1, SelfStat.delta(now, SelfStat.threads()), fake)
                .isEmpty()) {
            throw new IllegalStateException();
        }
    }

    private static String resultJson(final int workers, final long units, final long[] doneUnits, final long[] ends,
            final long start, final long workNs, final long[] d, final Map<Long, SelfStat.Thread> after) {
        StringBuilder json = new StringBuilder("{\"workload\":\"cpu-victim\",\"workers\":").append(workers)
                .append(",\"units\":").append(java.util.Arrays.stream(doneUnits).sum())
                .append(",\"stoppedEarly\":").append(java.util.Arrays.stream(doneUnits).anyMatch(x -> x < units)).append(",\"workNs\":").append(workNs)
                .append(",\"cpuNs\":").append(d[0]).append(",\"runQueueNs\":").append(d[1])
                .append(",\"timeslices\":").append(d[2]).append(",\"threads\":[");
        boolean first = true;
        for (SelfStat.Thread th : after.values()) {
            if (!th.name().startsWith(WORKER_PREFIX)) {
                continue;
            }
            int id = Integer.parseInt(th.name().substring(WORKER_PREFIX.length()));
            json.append(first ? "" : ",").append("{\"name\":").append(Protocol.str(th.name()))
                    .append(",\"units\":").append(doneUnits[id]).append(",\"wallNs\":").append(ends[id] - start)
                    .append(",\"onCpuNs\":").append(th.onCpuNs()).append(",\"runQueueNs\":").append(th.runQueueNs())
                    .append(",\"timeslices\":").append(th.slices()).append('}');
            first = false;
        }
        json.append("]}");
        return json.toString();
    }
}
