package dev.schedpolicy.engine.bench.workload;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * How a victim talks to the runner: it warms up, prints {@code READY}, waits for a line on stdin
 * (so JVM start-up is never measured), works, and prints its result as one JSON line.
 */
final class Protocol {
    static final String READY = "READY";

    private Protocol() {
    }

    /** @return false when the runner closed stdin instead of saying go */
    static boolean readyAndWait() throws IOException {
        System.out.println(READY);
        System.out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        return in.readLine() != null;
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
