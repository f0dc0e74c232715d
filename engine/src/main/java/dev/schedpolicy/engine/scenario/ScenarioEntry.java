package dev.schedpolicy.engine.scenario;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One {@code key = value} of a scenario file and where it stood, with the readers of its value: each refuses a bad
 * value with the file, line and column, and says what is allowed.
 */
record ScenarioEntry(String key, String value, int line, int keyColumn, int valueColumn) {
    private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ms|s)");

    ScenarioEntry append(final String more) {
        return new ScenarioEntry(key, value.isEmpty() ? more : value + " " + more, line, keyColumn, valueColumn);
    }

    /** One item of a comma-separated value and its column. */
    record Token(String text, int column) {
    }

    static List<Token> split(final String file, final ScenarioEntry e) {
        List<Token> out = new ArrayList<>();
        String v = e.value();
        int start = 0;
        while (start <= v.length()) {
            int comma = v.indexOf(',', start);
            int end = comma < 0 ? v.length() : comma;
            String part = v.substring(start, end);
            String t = part.strip();
            int col = e.valueColumn() + start + (part.length() - part.stripLeading().length());
            if (t.isEmpty()) {
                throw new ScenarioException(file, e.line(), col, "empty item in the list of '" + e.key() + "'");
            }
            out.add(new Token(t, col));
            if (comma < 0) {
                break;
            }
            start = comma + 1;
        }
        return out;
    }

    static int intValue(final String file, final ScenarioEntry e, final int fallback, final int min, final int max) {
        if (e == null) {
            return fallback;
        }
        try {
            int v = Integer.parseInt(e.value());
            if (v < min || v > max) {
                throw error(file, e, "'" + e.key() + "' must be between " + min + " and " + max + ", not " + v);
            }
            return v;
        } catch (NumberFormatException ex) {
            throw error(file, e, "'" + e.key() + "' must be a whole number, not '" + e.value() + "'");
        }
    }

    static double doubleValue(final String file, final ScenarioEntry e, final String text, final int column) {
        try {
            return Double.parseDouble(text);
        } catch (NumberFormatException ex) {
            throw new ScenarioException(file, e.line(), column, "'" + text + "' is not a number");
        }
    }

    static long durationValue(final String file, final ScenarioEntry e) {
        Matcher m = DURATION.matcher(e.value().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw error(file, e, "duration must look like 2s, 2.5s or 1500ms, not '" + e.value() + "'");
        }
        double v = Double.parseDouble(m.group(1)) * (m.group(2).equals("s") ? 1000 : 1);
        if (v < Matrix.MIN_DURATION_MS || v > Matrix.MAX_DURATION_MS) {
            throw error(file, e, "duration must be between " + Matrix.MIN_DURATION_MS + "ms and "
                    + Matrix.MAX_DURATION_MS / 1000 + "s");
        }
        return Math.round(v);
    }

    static <E extends Enum<E>> E enumValue(final String file, final ScenarioEntry e, final E fallback, final Class<E> type) {
        if (e == null) {
            return fallback;
        }
        String wanted = e.value().toUpperCase(Locale.ROOT).replace('-', '_');
        for (E c : type.getEnumConstants()) {
            if (c.name().equals(wanted)) {
                return c;
            }
        }
        List<String> names = new ArrayList<>();
        for (E c : type.getEnumConstants()) {
            names.add(c.name().toLowerCase(Locale.ROOT).replace('_', '-'));
        }
        throw error(file, e, "'" + e.key() + "' must be one of " + String.join(", ", names) + ", not '" + e.value() + "'");
    }

    static ScenarioEntry require(final String file, final Map<String, ScenarioEntry> entries, final String key, final int line,
            final String where) {
        ScenarioEntry e = entries.get(key);
        if (e == null) {
            throw new ScenarioException(file, line, 1, "'" + key + "' is required in " + where);
        }
        return e;
    }

    static ScenarioException error(final String file, final ScenarioEntry e, final String message) {
        return new ScenarioException(file, e.line(), e.valueColumn(), message);
    }
}
