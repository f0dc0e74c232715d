package dev.schedpolicy.engine.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Folds per-cell warnings ("nice10 load 2: 95% CI half-width 3.3 points exceeds 2; ...") into one line per
 * kind for the console, listing the cells and the values that differ between them. The report keeps every
 * warning as it was raised; this is only how a noisy run reads in a terminal.
 */
public final class WarningGroups {
    private static final Pattern CELL = Pattern.compile("^((?:\\S+ )?\\S+ load [0-9.]+): (.+)$", Pattern.DOTALL);
    private static final Pattern NUMBER = Pattern.compile("-?[0-9]+(?:\\.[0-9]+)?");

    private WarningGroups() {
    }

    /** True for a warning about one policy x load cell, which {@link #lines} folds with its kind. */
    public static boolean isAboutOneCell(final String warning) {
        return CELL.matcher(warning).matches();
    }

    /** One line per kind, in order of first appearance; warnings not about one cell stay as they are. */
    public static List<String> lines(final List<String> warnings) {
        Map<String, List<String[]>> groups = new LinkedHashMap<>();
        for (String w : warnings) {
            Matcher m = CELL.matcher(w);
            if (m.matches()) {
                groups.computeIfAbsent("cell\0" + NUMBER.matcher(m.group(2)).replaceAll("#"), k -> new ArrayList<>())
                        .add(new String[] {m.group(1), m.group(2)});
            } else {
                groups.computeIfAbsent("text\0" + w, k -> new ArrayList<>()).add(new String[] {null, w});
            }
        }
        List<String> out = new ArrayList<>();
        for (List<String[]> g : groups.values()) {
            out.add(g.get(0)[0] == null || g.size() == 1 ? join(g.get(0)) : fold(g));
        }
        return out;
    }

    private static String join(final String[] w) {
        return w[0] == null ? w[1] : w[0] + ": " + w[1];
    }

    /** The shared text with each number that differs between cells shown as N, then the cells with their N values. */
    private static String fold(final List<String[]> group) {
        List<List<String>> numbers = new ArrayList<>();
        for (String[] w : group) {
            List<String> n = new ArrayList<>();
            NUMBER.matcher(w[1]).results().forEach(r -> n.add(r.group()));
            numbers.add(n);
        }
        List<String> first = numbers.get(0);
        boolean[] varies = new boolean[first.size()];
        for (List<String> n : numbers) {
            for (int i = 0; i < varies.length; i++) {
                varies[i] |= !n.get(i).equals(first.get(i));
            }
        }
        StringBuilder text = new StringBuilder();
        Matcher m = NUMBER.matcher(group.get(0)[1]);
        int i = 0;
        while (m.find()) {
            m.appendReplacement(text, varies[i++] ? "N" : Matcher.quoteReplacement(m.group()));
        }
        m.appendTail(text);
        List<String> cells = new ArrayList<>();
        for (int c = 0; c < group.size(); c++) {
            List<String> values = new ArrayList<>();
            for (int k = 0; k < varies.length; k++) {
                if (varies[k]) {
                    values.add(numbers.get(c).get(k));
                }
            }
            cells.add(values.isEmpty() ? group.get(c)[0] : group.get(c)[0] + " (" + String.join(", ", values) + ")");
        }
        return group.size() + " cells: " + text + " [" + String.join("; ", cells) + "]";
    }
}
