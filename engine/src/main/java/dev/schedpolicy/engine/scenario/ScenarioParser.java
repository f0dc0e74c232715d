package dev.schedpolicy.engine.scenario;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the scenario format: {@code key = value} lines, {@code [section]} headers, full-line {@code #}
 * comments, and indented continuation lines for text values. Every error names file, line and column.
 */
public final class ScenarioParser {
    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,63}");
    private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ms|s)");
    private static final Set<String> TOP_KEYS = Set.of("name", "title", "description", "expect", "warmup",
            "policy-target", "load-axis");
    private static final Set<String> WORKLOAD_KEYS = Set.of("workload", "command", "workers", "copies", "pin",
            "per-load", "period-ms", "work-share", "wakeups", "classes", "forks");
    private static final Set<String> MATRIX_KEYS = Set.of("policies", "loads", "repetitions", "duration", "max-slowdown",
            "topologies");
    private static final Set<String> TEXT_KEYS = Set.of("title", "description", "expect", "command");
    private static final String EXPECT_PREFIX = "expect.";
    private static final String CLAIMS_PREFIX = "claims.";
    private static final List<String> SECTIONS = List.of("victim", "background", "matrix", "quick");

    private final Consumer<String> policyValidator;

    /** @param policyValidator throws with a message when a policy label is not valid */
    public ScenarioParser(final Consumer<String> policyValidator) {
        this.policyValidator = policyValidator;
    }

    /** One value and where it stood. */
    private record Entry(String key, String value, int line, int keyColumn, int valueColumn) {
        Entry append(final String more) {
            return new Entry(key, value.isEmpty() ? more : value + " " + more, line, keyColumn, valueColumn);
        }
    }

    public Scenario parse(final String file, final String text) {
        Map<String, Map<String, Entry>> sections = new LinkedHashMap<>();
        Map<String, Integer> sectionLines = new TreeMap<>();
        sections.put("", new LinkedHashMap<>());
        String section = "";
        Entry last = null;
        String[] lines = text.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            int lineNo = i + 1;
            String raw = lines[i];
            String trimmed = raw.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                continue;
            }
            int indent = raw.indexOf(trimmed.charAt(0));
            if (indent > 0 && last != null) {
                if (!isTextKey(last.key())) {
                    throw new ScenarioException(file, lineNo, indent + 1, "only " + String.join(", ", TEXT_KEYS)
                            + " may continue on an indented line; '" + last.key() + "' may not");
                }
                last = last.append(trimmed);
                sections.get(section).put(last.key(), last);
                continue;
            }
            if (trimmed.startsWith("[")) {
                if (!trimmed.endsWith("]")) {
                    throw new ScenarioException(file, lineNo, indent + trimmed.length() + 1, "section header lacks ']'");
                }
                String name = trimmed.substring(1, trimmed.length() - 1).strip().toLowerCase(Locale.ROOT);
                if (!SECTIONS.contains(name)) {
                    throw new ScenarioException(file, lineNo, indent + 2, "unknown section [" + name + "]; use one of "
                            + String.join(", ", SECTIONS.stream().map(s -> "[" + s + "]").toList()));
                }
                if (sections.containsKey(name)) {
                    throw new ScenarioException(file, lineNo, indent + 1, "section [" + name + "] appears twice (first on line "
                            + sectionLines.get(name) + ")");
                }
                section = name;
                sections.put(name, new LinkedHashMap<>());
                sectionLines.put(name, lineNo);
                last = null;
                continue;
            }
            int eq = raw.indexOf('=');
            if (eq < 0) {
                throw new ScenarioException(file, lineNo, indent + 1, "expected 'key = value', a [section] or a # comment");
            }
            String key = raw.substring(0, eq).strip().toLowerCase(Locale.ROOT);
            String value = raw.substring(eq + 1).strip();
            int valueColumn = eq + 2 + (raw.length() - eq - 1 - raw.substring(eq + 1).stripLeading().length());
            Set<String> allowed = allowedKeys(section);
            if (!allowed.contains(key) && !(section.isEmpty() && isPerTopologyKey(key))) {
                throw new ScenarioException(file, lineNo, indent + 1, "unknown key '" + key + "' in "
                        + (section.isEmpty() ? "the header" : "[" + section + "]") + "; allowed: "
                        + String.join(", ", new TreeMap<>(asMap(allowed)).keySet())
                        + (section.isEmpty() ? ", expect.TOPOLOGY, claims.TOPOLOGY" : ""));
            }
            Map<String, Entry> entries = sections.get(section);
            if (entries.containsKey(key)) {
                throw new ScenarioException(file, lineNo, indent + 1, "'" + key + "' is set twice (first on line "
                        + entries.get(key).line() + ")");
            }
            last = new Entry(key, value, lineNo, indent + 1, valueColumn);
            entries.put(key, last);
        }
        return build(file, sections, sectionLines, lines.length);
    }

    /** Text values may continue on indented lines; claims too, as a list can grow long. */
    private static boolean isTextKey(final String key) {
        return TEXT_KEYS.contains(key) || isPerTopologyKey(key);
    }

    private static boolean isPerTopologyKey(final String key) {
        return key.startsWith(EXPECT_PREFIX) || key.startsWith(CLAIMS_PREFIX);
    }

    /**
     * The {@code expect.TOPOLOGY} and {@code claims.TOPOLOGY} keys: what to expect in each topology. Claims without
     * words, or words for a topology the scenario does not know, are refused, so every claim is explained.
     */
    private Map<Topology, Expectation> expectations(final String file, final Map<String, Entry> top) {
        Map<Topology, String> texts = new LinkedHashMap<>();
        Map<Topology, List<Claim>> claims = new LinkedHashMap<>();
        for (Entry e : top.values()) {
            if (!isPerTopologyKey(e.key())) {
                continue;
            }
            boolean words = e.key().startsWith(EXPECT_PREFIX);
            String id = e.key().substring((words ? EXPECT_PREFIX : CLAIMS_PREFIX).length());
            Topology t;
            try {
                t = Topology.parse(id);
            } catch (IllegalArgumentException ex) {
                throw new ScenarioException(file, e.line(), e.keyColumn(), "'" + e.key() + "': " + ex.getMessage());
            }
            if (words) {
                if (e.value().isBlank()) {
                    throw error(file, e, "'" + e.key() + "' is empty");
                }
                texts.put(t, e.value());
            } else {
                List<Claim> list = new ArrayList<>();
                for (Token token : split(file, e)) {
                    try {
                        Claim c = Claim.parse(token.text());
                        policyValidator.accept(c.policy());
                        ClaimRules.violation(t, c).ifPresent(why -> {
                            throw new IllegalArgumentException(why);
                        });
                        list.add(c);
                    } catch (RuntimeException ex) {
                        throw new ScenarioException(file, e.line(), token.column(), ex.getMessage());
                    }
                }
                claims.put(t, list);
            }
        }
        Map<Topology, Expectation> out = new LinkedHashMap<>();
        for (Map.Entry<Topology, List<Claim>> c : claims.entrySet()) {
            if (!texts.containsKey(c.getKey())) {
                Entry e = top.get(CLAIMS_PREFIX + c.getKey().id());
                throw new ScenarioException(file, e == null ? 1 : e.line(), 1, "claims for " + c.getKey().id()
                        + " need words too: add 'expect." + c.getKey().id() + " = ...'");
            }
        }
        texts.forEach((t, text) -> out.put(t, new Expectation(text, claims.getOrDefault(t, List.of()))));
        return out;
    }

    private static Map<String, Boolean> asMap(final Set<String> keys) {
        Map<String, Boolean> m = new TreeMap<>();
        keys.forEach(k -> m.put(k, true));
        return m;
    }

    private static Set<String> allowedKeys(final String section) {
        return switch (section) {
            case "" -> TOP_KEYS;
            case "victim", "background" -> WORKLOAD_KEYS;
            default -> MATRIX_KEYS;
        };
    }

    private Scenario build(final String file, final Map<String, Map<String, Entry>> sections,
            final Map<String, Integer> sectionLines, final int lineCount) {
        Map<String, Entry> top = sections.get("");
        Entry name = require(file, top, "name", 1, "the header");
        if (!NAME.matcher(name.value()).matches()) {
            throw error(file, name, "name '" + name.value() + "' must be lower-case letters, digits and '-'");
        }
        Scenario.PolicyTarget target = enumValue(file, top.get("policy-target"), Scenario.PolicyTarget.BACKGROUND,
                Scenario.PolicyTarget.class);
        Scenario.LoadAxis axis = enumValue(file, top.get("load-axis"), Scenario.LoadAxis.BACKGROUND,
                Scenario.LoadAxis.class);
        int warmup = intValue(file, top.get("warmup"), 1, 0, 10);

        WorkloadSpec victim = workload(file, sections.get("victim"), true);
        WorkloadSpec background = workload(file, sections.get("background"), false);
        if (victim.isNone() && background.isNone()) {
            throw new ScenarioException(file, 1, 1, "a scenario needs a [victim] or a [background] section");
        }
        if (victim.isNone() && target == Scenario.PolicyTarget.VICTIM) {
            throw error(file, top.get("policy-target"), "policy-target = victim needs a [victim] section");
        }
        if (axis == Scenario.LoadAxis.VICTIM_WORKERS && (victim.isNone() || victim.isCommand())) {
            throw error(file, top.get("load-axis"), "load-axis = victim-workers needs a built-in victim");
        }
        Map<String, Entry> matrixEntries = sections.get("matrix");
        if (matrixEntries == null) {
            throw new ScenarioException(file, lineCount, 1, "a [matrix] section with policies and loads is required");
        }
        int matrixLine = sectionLines.get("matrix");
        Matrix full = matrix(file, matrixEntries, matrixLine, null);
        Matrix quick = sections.containsKey("quick")
                ? matrix(file, sections.get("quick"), sectionLines.get("quick"), full)
                : Matrix.quickFrom(full);
        return new Scenario(name.value(), text(top, "title", name.value()), text(top, "description", ""),
                text(top, "expect", ""), file, victim, background, target, axis, warmup, full, quick,
                expectations(file, top));
    }

    private static String text(final Map<String, Entry> entries, final String key, final String fallback) {
        Entry e = entries.get(key);
        return e == null ? fallback : e.value();
    }

    private WorkloadSpec workload(final String file, final Map<String, Entry> entries, final boolean victimSide) {
        if (entries == null) {
            return WorkloadSpec.NONE;
        }
        Entry workload = entries.get("workload");
        Entry command = entries.get("command");
        String side = victimSide ? "[victim]" : "[background]";
        if (workload != null && command != null) {
            throw error(file, command, side + " sets both 'workload' and 'command'; choose one");
        }
        int perLoad = 0;
        Entry perLoadEntry = entries.get("per-load");
        if (perLoadEntry != null) {
            if (victimSide) {
                throw error(file, perLoadEntry, "'per-load' belongs to [background]");
            }
            perLoad = perLoadEntry.value().equalsIgnoreCase("ncpu") ? 0 : intValue(file, perLoadEntry, 1, 1, 64);
        }
        if (command != null) {
            if (command.value().isEmpty()) {
                throw error(file, command, "command is empty");
            }
            for (String k : List.of("workers", "copies", "pin", "period-ms", "work-share", "wakeups", "classes", "forks")) {
                if (entries.containsKey(k)) {
                    throw error(file, entries.get(k), "'" + k + "' applies to built-in workloads, not to a command");
                }
            }
            return WorkloadSpec.command(command.value(), perLoad == 0 && perLoadEntry == null ? 1 : perLoad);
        }
        if (workload == null) {
            throw new ScenarioException(file, entries.values().stream().mapToInt(Entry::line).min().orElse(1), 1,
                    side + " needs 'workload' (" + Builtin.ids(victimSide) + ", or none) or 'command'");
        }
        if (workload.value().equalsIgnoreCase("none")) {
            return WorkloadSpec.NONE;
        }
        Builtin builtin = Builtin.byId(workload.value()).orElseThrow(() -> error(file, workload,
                "unknown workload '" + workload.value() + "'; " + side + " takes " + Builtin.ids(victimSide)));
        if (builtin.isVictim() != victimSide) {
            throw error(file, workload, "'" + builtin.id() + "' " + (victimSide
                    ? "runs forever and cannot be a victim; victims: " + Builtin.ids(true)
                    : "is a fixed-work victim, not a background load; backgrounds: " + Builtin.ids(false)));
        }
        int workers = intValue(file, entries.get("workers"), 1, 1, 256);
        int copies = intValue(file, entries.get("copies"), 1, 1, 64);
        boolean pin = false;
        Entry pinEntry = entries.get("pin");
        if (pinEntry != null) {
            switch (pinEntry.value().toLowerCase(Locale.ROOT)) {
                case "none" -> pin = false;
                case "per-copy" -> pin = true;
                default -> throw error(file, pinEntry, "pin must be 'none' or 'per-copy', not '" + pinEntry.value() + "'");
            }
        }
        Map<String, String> params = new TreeMap<>();
        Entry period = entries.get("period-ms");
        Entry share = entries.get("work-share");
        Entry wakeups = entries.get("wakeups");
        boolean periodic = builtin == Builtin.PERIODIC || builtin == Builtin.CYCLICTEST;
        for (Entry e : new Entry[] {period, share, wakeups}) {
            if (e != null && !periodic) {
                throw error(file, e, "period-ms, work-share and wakeups apply to the periodic and cyclictest workloads only");
            }
        }
        if (period != null) {
            params.put("period-ms", Integer.toString(intValue(file, period, 100, 1, 10_000)));
        }
        if (wakeups != null) {
            params.put("wakeups", Integer.toString(intValue(file, wakeups, 10_000, 10, 10_000_000)));
        }
        if (share != null) {
            double v = doubleValue(file, share, share.value(), share.valueColumn());
            if (v <= 0 || v >= 1) {
                throw error(file, share, "work-share is the busy fraction of each period, between 0 and 1 exclusive");
            }
            params.put("work-share", share.value());
        }
        onlyFor(file, entries.get("classes"), builtin, Builtin.COMPILE_LOOP, 5, 2000, params);
        onlyFor(file, entries.get("forks"), builtin, Builtin.TEST_JOB, 0, 1000, params);
        return new WorkloadSpec(builtin, null, workers, params, copies, pin, perLoad);
    }

    /** A whole-number key that only one built-in workload takes. */
    private static void onlyFor(final String file, final Entry e, final Builtin builtin, final Builtin owner, final int min,
            final int max, final Map<String, String> params) {
        if (e == null) {
            return;
        }
        if (builtin != owner) {
            throw error(file, e, "'" + e.key() + "' applies to the " + owner.id() + " workload only");
        }
        params.put(e.key(), Integer.toString(intValue(file, e, min, min, max)));
    }

    private Matrix matrix(final String file, final Map<String, Entry> entries, final int sectionLine, final Matrix base) {
        List<String> policies;
        Entry p = entries.get("policies");
        if (p == null) {
            if (base == null) {
                throw new ScenarioException(file, sectionLine, 1, "[matrix] needs 'policies'");
            }
            policies = base.policies();
        } else {
            policies = policyList(file, p);
        }
        List<Double> loads;
        Entry l = entries.get("loads");
        if (l == null) {
            if (base == null) {
                throw new ScenarioException(file, sectionLine, 1, "[matrix] needs 'loads'");
            }
            loads = base.loads();
        } else {
            loads = loadList(file, l);
        }
        int reps = intValue(file, entries.get("repetitions"), base == null ? 5 : base.repetitions(),
                Matrix.MIN_REPETITIONS, Matrix.MAX_REPETITIONS);
        long duration = base == null ? 2000 : base.durationMs();
        Entry d = entries.get("duration");
        if (d != null) {
            duration = durationValue(file, d);
        }
        int maxSlowdown = intValue(file, entries.get("max-slowdown"),
                base == null ? Matrix.DEFAULT_MAX_SLOWDOWN : base.maxSlowdown(), Matrix.MIN_SLOWDOWN, Matrix.MAX_SLOWDOWN);
        List<Topology> topologies = base == null ? List.of(Topology.SAME_AGENT) : base.topologies();
        Entry t = entries.get("topologies");
        if (t != null) {
            topologies = new ArrayList<>();
            for (Token token : split(file, t)) {
                try {
                    Topology parsed = Topology.parse(token.text());
                    if (topologies.contains(parsed)) {
                        throw new IllegalArgumentException("topology '" + token.text() + "' is listed twice");
                    }
                    topologies.add(parsed);
                } catch (IllegalArgumentException ex) {
                    throw new ScenarioException(file, t.line(), token.column(), ex.getMessage());
                }
            }
        }
        try {
            return new Matrix(policies, loads, reps, duration, maxSlowdown, topologies);
        } catch (IllegalArgumentException e) {
            throw new ScenarioException(file, sectionLine, 1, e.getMessage());
        }
    }

    private List<String> policyList(final String file, final Entry e) {
        List<String> out = new ArrayList<>();
        for (Token t : split(file, e)) {
            try {
                policyValidator.accept(t.text());
            } catch (RuntimeException ex) {
                throw new ScenarioException(file, e.line(), t.column(), "policy '" + t.text() + "': " + ex.getMessage());
            }
            if (out.contains(t.text())) {
                throw new ScenarioException(file, e.line(), t.column(), "policy '" + t.text() + "' is listed twice");
            }
            out.add(t.text());
        }
        return out;
    }

    private static List<Double> loadList(final String file, final Entry e) {
        List<Double> out = new ArrayList<>();
        for (Token t : split(file, e)) {
            double v = doubleValue(file, e, t.text(), t.column());
            if (!(v >= Matrix.MIN_LOAD && v <= Matrix.MAX_LOAD)) {
                throw new ScenarioException(file, e.line(), t.column(), "load " + t.text()
                        + " is out of range; loads are multiples of the CPU count from 0 to 64");
            }
            if (out.contains(v)) {
                throw new ScenarioException(file, e.line(), t.column(), "load " + t.text() + " is listed twice");
            }
            out.add(v);
        }
        return out;
    }

    private record Token(String text, int column) {
    }

    private static List<Token> split(final String file, final Entry e) {
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

    private static int intValue(final String file, final Entry e, final int fallback, final int min, final int max) {
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

    private static double doubleValue(final String file, final Entry e, final String text, final int column) {
        try {
            return Double.parseDouble(text);
        } catch (NumberFormatException ex) {
            throw new ScenarioException(file, e.line(), column, "'" + text + "' is not a number");
        }
    }

    private static long durationValue(final String file, final Entry e) {
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

    private static <E extends Enum<E>> E enumValue(final String file, final Entry e, final E fallback, final Class<E> type) {
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

    private static Entry require(final String file, final Map<String, Entry> entries, final String key, final int line,
            final String where) {
        Entry e = entries.get(key);
        if (e == null) {
            throw new ScenarioException(file, line, 1, "'" + key + "' is required in " + where);
        }
        return e;
    }

    private static ScenarioException error(final String file, final Entry e, final String message) {
        return new ScenarioException(file, e.line(), e.valueColumn(), message);
    }
}
