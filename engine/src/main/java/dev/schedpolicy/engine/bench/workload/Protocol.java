package dev.schedpolicy.engine.bench.workload;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * How a victim talks to the runner: it warms up, prints {@code READY}, waits for a line on stdin
 * (so JVM start-up is never measured), works, prints its result as one JSON line, and then stays alive
 * with all its threads until the runner closes stdin or kills it: the runner reads the victim's CPU time
 * from {@code /proc} after the result, and a thread that has ended by then no longer shows there.
 */
final class Protocol {
    static final String READY = "READY";
    private static final BufferedReader IN = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));

    private Protocol() {
    }

    /** @return false when the runner closed stdin instead of saying go */
    static boolean readyAndWait() throws IOException {
        System.out.println(READY);
        System.out.flush();
        return IN.readLine() != null;
    }

    /** Blocks until the runner closes stdin (or kills the process); call after {@link #result}. */
    static void awaitExit() {
        try {
            while (IN.readLine() != null) {
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
