package dev.schedpolicy.engine.buildpage;

import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Locale;

/**
 * Names a build's benchmark results (file in the build directory, URL of its page) after the node they ran on. One
 * build can benchmark several nodes in parallel, so the name must tell every node apart: letters, digits, '.' and '-'
 * stand for themselves and every other byte of the name's UTF-8 is written {@code _XX} (hex), '_' included, so
 * {@code agent 1} and {@code agent_1} get different names and no two node names the same. The name depends on the node
 * name alone (stable across restarts); a second result of the same node in one build gets {@code ~2}, {@code ~3}, which
 * no escaped name contains.
 */
public final class BenchmarkFiles {
    /** The built-in node's name, and the prefix of every agent's. */
    public static final String BASE = "schedpolicy-benchmark";

    private BenchmarkFiles() {
    }

    /** {@code schedpolicy-benchmark} for the built-in node ("" or null), {@code schedpolicy-benchmark-ESCAPED} for an agent. */
    public static String nameFor(final String nodeName) {
        return nodeName == null || nodeName.isEmpty() ? BASE : BASE + "-" + escape(nodeName);
    }

    /** {@link #nameFor} unless a result of the build already has that name; then the first free {@code NAME~N}. */
    public static String nameFor(final String nodeName, final Collection<String> taken) {
        String name = nameFor(nodeName);
        if (!taken.contains(name)) {
            return name;
        }
        int n = 2;
        while (taken.contains(name + "~" + n)) {
            n++;
        }
        return name + "~" + n;
    }

    /** The name builds stored before names were escaped used (each other character one '_', not injective); for reading them. */
    public static String legacyNameFor(final String nodeName) {
        return nodeName == null || nodeName.isEmpty() ? BASE : BASE + "-" + nodeName.replaceAll("[^A-Za-z0-9._-]", "_");
    }

    static String escape(final String nodeName) {
        StringBuilder out = new StringBuilder();
        for (byte b : nodeName.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if (c < 0x80 && (Character.isLetterOrDigit(c) || c == '.' || c == '-')) {
                out.append(c);
            } else {
                out.append('_').append(String.format(Locale.ROOT, "%02x", b & 0xff));
            }
        }
        return out.toString();
    }
}
