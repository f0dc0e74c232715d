package dev.schedpolicy.engine.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * Every process the benchmark started, so a cancel or a failure kills them all; a watchdog that kills a
 * workload that stops talking (its thread also samples a running victim); and the temp directory of the
 * workloads' error logs.
 */
final class ProcessTracker implements AutoCloseable {
    private final Set<ProcessStarter.Started> live = ConcurrentHashMap.newKeySet();
    private final BenchOptions.Cancellation cancellation;
    private final Consumer<String> warn;
    private final ScheduledExecutorService watchdog;
    private final Path tmp;

    ProcessTracker(final BenchOptions.Cancellation cancellation, final Consumer<String> warn) throws IOException {
        this.cancellation = cancellation;
        this.warn = warn;
        this.tmp = Files.createTempDirectory("schedpolicy-bench-");
        this.watchdog = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "schedpolicy-bench-watchdog");
            t.setDaemon(true);
            return t;
        });
        cancellation.onCancel(this::killAll);
    }

    /** Where workloads write their stderr. */
    Path log(final String name) {
        return tmp.resolve(name);
    }

    ProcessStarter.Started track(final ProcessStarter.Started st) {
        live.add(st);
        if (cancellation.isCancelled()) {
            close(st);
        }
        return st;
    }

    void close(final ProcessStarter.Started st) {
        try {
            st.close();
        } finally {
            live.remove(st);
        }
    }

    void killAll() {
        for (ProcessStarter.Started st : List.copyOf(live)) {
            try {
                close(st);
            } catch (RuntimeException e) {
                warn.accept("could not clean up a process: " + e.getMessage());
            }
        }
    }

    /** Kills the process unless the returned handle is cancelled within the timeout. */
    ScheduledFuture<?> killAfter(final ProcessStarter.Started st, final long timeoutMs) {
        return watchdog.schedule(st::close, timeoutMs, TimeUnit.MILLISECONDS);
    }

    /** Runs a task every period on the watchdog's thread until the returned handle is cancelled. */
    ScheduledFuture<?> repeat(final Runnable task, final long periodMs) {
        return watchdog.scheduleWithFixedDelay(task, periodMs, periodMs, TimeUnit.MILLISECONDS);
    }

    /** Reads a line; kills the process when it takes longer than the timeout (readLine then ends with null). */
    String readLine(final BufferedReader in, final ProcessStarter.Started st, final long timeoutMs) throws IOException {
        ScheduledFuture<?> kill = killAfter(st, timeoutMs);
        try {
            return in.readLine();
        } finally {
            kill.cancel(false);
        }
    }

    /** The last lines of a workload's error log, for a failure message. */
    String tail(final String logName) {
        try {
            List<String> lines = Files.readAllLines(log(logName));
            String t = lines.subList(Math.max(0, lines.size() - 5), lines.size()).stream().collect(Collectors.joining(" | "));
            return t.isBlank() ? "(no error output)" : t;
        } catch (IOException e) {
            return "(no error output)";
        }
    }

    @Override
    public void close() {
        killAll();
        watchdog.shutdownNow();
        try (var files = Files.list(tmp)) {
            for (Path f : files.toList()) {
                Files.deleteIfExists(f);
            }
            Files.deleteIfExists(tmp);
        } catch (IOException e) {
            // best effort: a temp dir of logs
        }
    }
}
