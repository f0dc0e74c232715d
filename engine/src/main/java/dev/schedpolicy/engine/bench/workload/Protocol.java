package dev.schedpolicy.engine.bench.workload;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The one protocol between the runner and its workload processes; both sides use these names.
 * A victim warms up, prints {@link #READY}, waits for {@link #GO} on stdin (so JVM start-up is never
 * measured), works, prints its result as one JSON line (a line starting with <code>{</code>), and then stays
 * alive with all its threads until the runner closes stdin or kills it: the runner reads the victim's CPU
 * time from {@code /proc} after the result, and a thread that has ended by then no longer shows there.
 * A background workload prints {@link #PROGRESS} and its total work units so far, every 100 ms, until killed.
 */
public final class Protocol {
    public static final String READY = "READY";
    public static final String GO = "GO";
    public static final String PROGRESS = "P ";

    private Protocol() {
    }

    /** Whether a line is a victim's result (other lines, e.g. a JVM warning, are skipped). */
    public static boolean isResult(final String line) {
        return line.startsWith("{");
    }

    /** The units of a progress line; empty for any other line. */
    public static Optional<Long> progressUnits(final String line) {
        return line.startsWith(PROGRESS) ? Optional.of(Long.parseLong(line.substring(PROGRESS.length()).trim()))
                : Optional.empty();
    }

    /** Stdin is read only in the workload JVMs, never in the runner's. */
    private static final class In {
        static final BufferedReader IN = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    }

    /** @return false when the runner closed stdin instead of saying go */
    static boolean readyAndWait() throws IOException {
        System.out.println(READY);
        System.out.flush();
        return In.IN.readLine() != null;
    }

    static void progress(final long units) {
        System.out.println(PROGRESS + units);
    }

    /** Blocks until the runner closes stdin (or kills the process); call after {@link #result}. */
    static void awaitExit() {
        try {
            while (In.IN.readLine() != null) {
                // nothing else is expected: wait for end of input
            }
        } catch (IOException e) {
            // stdin gone: exit
        }
    }

    static void result(final String json) {
        System.out.println(json);
        System.out.flush();
    }

    static String str(final String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }
}
