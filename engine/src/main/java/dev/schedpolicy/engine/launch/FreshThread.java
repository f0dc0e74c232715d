package dev.schedpolicy.engine.launch;

import java.io.IOException;

/**
 * Runs a body on a new platform thread that dies right after: what a thread does to itself (scheduling, cgroup,
 * signal mask) is inherited by the processes it spawns and must never stay on a pooled thread.
 */
final class FreshThread {
    /** The body; it may throw what ProcessBuilder.start() throws. */
    interface Body<T> {
        T run() throws IOException;
    }

    private FreshThread() {
    }

    /** Runs {@code body} on a fresh daemon thread and waits for it, uninterruptibly: abandoning a spawn could leak the child. */
    static <T> T run(final String name, final Body<T> body) throws IOException {
        Object[] outcome = new Object[1];
        Thread thread = new Thread(() -> {
            try {
                outcome[0] = body.run();
            } catch (IOException | RuntimeException | Error e) {
                outcome[0] = e;
            }
        }, name);
        thread.setDaemon(true);
        thread.start();
        boolean interrupted = false;
        while (true) {
            try {
                thread.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (outcome[0] instanceof IOException e) {
            throw e;
        }
        if (outcome[0] instanceof RuntimeException e) {
            throw e;
        }
        if (outcome[0] instanceof Error e) {
            throw e;
        }
        @SuppressWarnings("unchecked")
        T result = (T) outcome[0];
        return result;
    }
}
