package dev.schedpolicy.engine.scenario;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * Reads the scenario format: {@code key = value} lines, {@code [section]} headers, full-line {@code #}
 * comments, and indented continuation lines for text values. Every error names file, line and column. This class
 * reads the lines into sections and checks their keys; {@link WorkloadParser}, {@link MatrixParser} and
 * {@link ExpectationParser} read what the sections say.
 */
public final class ScenarioParser {
    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,63}");
    private static final Set<String> TOP_KEYS = Set.of("name", "title", "description", "expect", "warmup",
            "policy-target", "load-axis");
    private static final Set<String> WORKLOAD_KEYS = Set.of("workload", "command", "workers", "copies", "pin",
            "per-load", "period-ms", "work-share", "wakeups", "classes", "forks");
    private static final Set<String> MATRIX_KEYS = Set.of("policies", "loads", "repetitions", "duration", "max-slowdown",
            "topologies");
    private static final Set<String> TEXT_KEYS = Set.of("title", "description", "expect", "command");
    private static final List<String> SECTIONS = List.of("victim", "background", "matrix", "quick");

    private final Consumer<String> policyValidator;

    /** @param policyValidator throws with a message when a policy label is not valid */
    public ScenarioParser(final Consumer<String> policyValidator) {
        this.policyValidator = policyValidator;
    }

    public Scenario parse(final String file, final String text) {
        Map<String, Map<String, ScenarioEntry>> sections = new LinkedHashMap<>();
        Map<String, Integer> sectionLines = new TreeMap<>();
        sections.put("", new LinkedHashMap<>());
        String section = "";
        ScenarioEntry last = null;
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
            if (!allowed.contains(key) && !(section.isEmpty() && ExpectationParser.isPerTopologyKey(key))) {
                throw new ScenarioException(file, lineNo, indent + 1, "unknown key '" + key + "' in "
                        + (section.isEmpty() ? "the header" : "[" + section + "]") + "; allowed: "
                        + String.join(", ", new TreeMap<>(asMap(allowed)).keySet())
                        + (section.isEmpty() ? ", expect.TOPOLOGY, claims.TOPOLOGY" : ""));
            }
            Map<String, ScenarioEntry> entries = sections.get(section);
            if (entries.containsKey(key)) {
                throw new ScenarioException(file, lineNo, indent + 1, "'" + key + "' is set twice (first on line "
                        + entries.get(key).line() + ")");
            }
            last = new ScenarioEntry(key, value, lineNo, indent + 1, valueColumn);
            entries.put(key, last);
        }
        return build(file, sections, sectionLines, lines.length);
    }

    /** Text values may continue on indented lines; claims too, as a list can grow long. */
    private static boolean isTextKey(final String key) {
        return TEXT_KEYS.contains(key) || ExpectationParser.isPerTopologyKey(key);
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

    private Scenario build(final String file, final Map<String, Map<String, ScenarioEntry>> sections,
            final Map<String, Integer> sectionLines, final int lineCount) {
        Map<String, ScenarioEntry> top = sections.get("");
        ScenarioEntry name = ScenarioEntry.require(file, top, "name", 1, "the header");
        if (!NAME.matcher(name.value()).matches()) {
            throw ScenarioEntry.error(file, name, "name '" + name.value() + "' must be lower-case letters, digits and '-'");
        }
        Scenario.PolicyTarget target = ScenarioEntry.enumValue(file, top.get("policy-target"), Scenario.PolicyTarget.BACKGROUND,
                Scenario.PolicyTarget.class);
        Scenario.LoadAxis axis = ScenarioEntry.enumValue(file, top.get("load-axis"), Scenario.LoadAxis.BACKGROUND,
                Scenario.LoadAxis.class);
        int warmup = ScenarioEntry.intValue(file, top.get("warmup"), 1, 0, 10);

        WorkloadSpec victim = WorkloadParser.workload(file, sections.get("victim"), true);
        WorkloadSpec background = WorkloadParser.workload(file, sections.get("background"), false);
        if (victim.isNone() && background.isNone()) {
            throw new ScenarioException(file, 1, 1, "a scenario needs a [victim] or a [background] section");
        }
        if (victim.isNone() && target == Scenario.PolicyTarget.VICTIM) {
            throw ScenarioEntry.error(file, top.get("policy-target"), "policy-target = victim needs a [victim] section");
        }
        if (axis == Scenario.LoadAxis.VICTIM_WORKERS && (victim.isNone() || victim.isCommand())) {
            throw ScenarioEntry.error(file, top.get("load-axis"), "load-axis = victim-workers needs a built-in victim");
        }
        Map<String, ScenarioEntry> matrixEntries = sections.get("matrix");
        if (matrixEntries == null) {
            throw new ScenarioException(file, lineCount, 1, "a [matrix] section with policies and loads is required");
        }
        int matrixLine = sectionLines.get("matrix");
        MatrixParser matrices = new MatrixParser(file, policyValidator);
        Matrix full = matrices.matrix(matrixEntries, matrixLine, null);
        Matrix quick = sections.containsKey("quick")
                ? matrices.matrix(sections.get("quick"), sectionLines.get("quick"), full)
                : Matrix.quickFrom(full);
        return new Scenario(name.value(), text(top, "title", name.value()), text(top, "description", ""),
                text(top, "expect", ""), file, victim, background, target, axis, warmup, full, quick,
                ExpectationParser.expectations(file, top, policyValidator));
    }

    private static String text(final Map<String, ScenarioEntry> entries, final String key, final String fallback) {
        ScenarioEntry e = entries.get(key);
        return e == null ? fallback : e.value();
    }
}
