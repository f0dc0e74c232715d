package dev.schedpolicy.engine.bench.workload;

import java.util.HashMap;
import java.util.Map;

/** {@code --key value} arguments of a workload program. */
final class Args {
    private final Map<String, String> values = new HashMap<>();

    Args(final String[] args) {
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--")) {
                throw new IllegalArgumentException("unexpected argument '" + args[i] + "'");
            }
            String key = args[i].substring(2);
            String value = i + 1 < args.length && !args[i + 1].startsWith("--") ? args[++i] : "true";
            values.put(key, value);
        }
    }

    long getLong(final String key, final long fallback) {
        String v = values.get(key);
        return v == null ? fallback : Long.parseLong(v);
    }

    double getDouble(final String key, final double fallback) {
        String v = values.get(key);
        return v == null ? fallback : Double.parseDouble(v);
    }

    String get(final String key, final String fallback) {
        return values.getOrDefault(key, fallback);
    }

    boolean has(final String key) {
        return values.containsKey(key);
    }
}
