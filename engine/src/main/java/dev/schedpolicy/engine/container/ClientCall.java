package dev.schedpolicy.engine.container;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One short question to a container client ({@code docker info}, {@code docker inspect}) with a bound that holds: the
 * answer goes to a file, not a pipe, so nothing blocks on reading while the client hangs on its daemon, and a client
 * that does not finish in time is killed with its children. Reading a pipe to its end first (as before) waited for
 * a hung dockerd forever, holding a thread and the client.
 */
final class ClientCall {
    private static final int MAX_OUTPUT = 64 * 1024;

    /** The client's exit status and its output (stdout and stderr together). */
    record Answer(int status, String output) {
        String firstLine() {
            String line = output.lines().findFirst().orElse("(no output)");
            return line.length() > 300 ? line.substring(0, 300) + "..." : line;
        }
    }

    /** The client did not finish within the bound and was killed. */
    static final class TimedOut extends IOException {
        private static final long serialVersionUID = 1L;

        TimedOut(final String message) {
            super(message);
        }
    }

    private ClientCall() {
    }

    /** Kills the client and every process it started, and waits (bounded) until they are gone. */
    private static void kill(final Process p) throws InterruptedException {
        List<ProcessHandle> tree = new java.util.ArrayList<>(p.descendants().toList());
        tree.add(p.toHandle());
        tree.forEach(ProcessHandle::destroyForcibly);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        for (ProcessHandle h : tree) {
            try {
                h.onExit().get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                // reaped by its new parent; nothing more we can do for it
            }
        }
    }

    /**
     * @param env the whole environment of the client (DOCKER_HOST ...)
     * @throws TimedOut    when it ran longer than {@code bound} (it and its children are killed)
     * @throws IOException when it cannot be started
     */
    static Answer run(final List<String> argv, final Map<String, String> env, final Duration bound)
            throws IOException, InterruptedException {
        Path out = Files.createTempFile("schedpolicy-client", ".out");
        try {
            ProcessBuilder pb = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(out.toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            pb.environment().clear();
            pb.environment().putAll(env);
            Process p = pb.start();
            try {
                if (!p.waitFor(bound.toMillis(), TimeUnit.MILLISECONDS)) {
                    throw new TimedOut("did not answer within " + bound.toSeconds() + " s");
                }
            } finally {
                if (p.isAlive()) {
                    kill(p);
                }
            }
            byte[] bytes;
            try (var in = Files.newInputStream(out)) {
                bytes = in.readNBytes(MAX_OUTPUT);
            }
            return new Answer(p.exitValue(), new String(bytes, StandardCharsets.UTF_8).trim());
        } finally {
            Files.deleteIfExists(out);
        }
    }
}
