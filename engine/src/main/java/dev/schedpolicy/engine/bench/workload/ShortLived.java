package dev.schedpolicy.engine.bench.workload;

import java.io.IOException;
import java.io.UncheckedIOException;

/** One short-lived child process with a little CPU work of its own, waited for (so its CPU is reaped to us). */
final class ShortLived {
    private static final String[] COMMAND = {"/bin/sh", "-c", "i=0; while [ $i -lt 2000 ]; do i=$((i+1)); done"};

    private ShortLived() {
    }

    static void run() {
        try {
            Process p = new ProcessBuilder(COMMAND).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            int rc = p.waitFor();
            if (rc != 0) {
                throw new IllegalStateException("short-lived child exited with " + rc);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start a short-lived child: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a short-lived child", e);
        }
    }
}
