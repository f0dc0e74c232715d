package dev.schedpolicy.engine.agent;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A build's measured launches in the form it keeps them on disk: each text once in a table (the launches of a build
 * repeat the same node, policy, stage, source, notes and neighbours thousands of times), and each launch one line of
 * numbers, most of them indexes into that table. A build of 5,000 {@code sh} steps keeps its figures in about
 * 1 MB this way, against 5 to 8 MB as one XML element per field.
 */
public final class LaunchTable {
    /** A text that was not known (null in figures stored before stages were recorded). */
    private static final int NONE = -1;
    private static final int FIGURES = 9;

    /** One launch: where it ran, its policy, where in the build (stage, parallel branch, step), and its figures. */
    public record Row(String node, String policy, String stage, String branch, String step, MeasureRecord record) {
    }

    /** The texts, and a line per launch. */
    public record Encoded(List<String> texts, String rows) {
    }

    private LaunchTable() {
    }

    public static Encoded encode(final List<Row> rows) {
        List<String> texts = new ArrayList<>();
        Map<String, Integer> index = new HashMap<>();
        StringBuilder out = new StringBuilder();
        for (Row row : rows) {
            MeasureRecord r = row.record();
            StringBuilder numbers = new StringBuilder();
            // stage, branch and step are null in figures stored before they were recorded
            for (String s : Arrays.asList(row.node(), row.policy(), row.stage(), row.branch(), row.step(), r.id(), r.label(),
                    r.source())) {
                numbers.append(indexOf(s, texts, index)).append(' ');
            }
            for (long f : r.figures()) {
                numbers.append(f).append(' ');
            }
            numbers.append(r.notes().size());
            for (String note : r.notes()) {
                numbers.append(' ').append(indexOf(note, texts, index));
            }
            numbers.append(' ').append(r.neighbourLabels().size());
            for (int i = 0; i < r.neighbourLabels().size(); i++) {
                numbers.append(' ').append(indexOf(r.neighbourLabels().get(i), texts, index)).append(' ')
                        .append(r.neighbourWaitNanos().get(i));
            }
            // then each neighbour's owner, when known: a line that ends after the neighbours is from before owners
            List<String> owners = r.neighbourOwners();
            if (owners != null) {
                for (String owner : owners) {
                    numbers.append(' ').append(indexOf(owner, texts, index));
                }
                // then, for a launch under a CPU quota, the time it held it back (records with owners only: every
                // record measured since quotas were kept apart has them)
                if (r.quotaApplied()) {
                    numbers.append(' ').append(r.throttledNanos());
                }
            }
            out.append(numbers).append('\n');
        }
        return new Encoded(texts, out.toString());
    }

    /** Reads what {@link #encode} wrote; a line that does not parse is a corrupt file, said in the exception. */
    public static List<Row> decode(final List<String> texts, final String rows) {
        List<Row> out = new ArrayList<>();
        int lineNumber = 0;
        for (String line : rows.split("\n")) {
            lineNumber++;
            if (line.isBlank()) {
                continue;
            }
            try {
                out.add(row(texts, line.trim().split(" ")));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("stored launch " + lineNumber + " does not parse (" + e + "): " + line, e);
            }
        }
        return out;
    }

    private static Row row(final List<String> texts, final String[] t) {
        int i = 0;
        String node = texts.get(Integer.parseInt(t[i++]));
        String policy = texts.get(Integer.parseInt(t[i++]));
        String stage = textAt(texts, t[i++]);
        String branch = textAt(texts, t[i++]);
        String step = textAt(texts, t[i++]);
        String id = texts.get(Integer.parseInt(t[i++]));
        String label = texts.get(Integer.parseInt(t[i++]));
        String source = texts.get(Integer.parseInt(t[i++]));
        long[] figures = new long[FIGURES];
        for (int f = 0; f < FIGURES; f++) {
            figures[f] = Long.parseLong(t[i++]);
        }
        int notesCount = Integer.parseInt(t[i++]);
        List<String> notes = new ArrayList<>();
        for (int n = 0; n < notesCount; n++) {
            notes.add(texts.get(Integer.parseInt(t[i++])));
        }
        int neighbours = Integer.parseInt(t[i++]);
        List<String> labels = new ArrayList<>();
        List<Long> waits = new ArrayList<>();
        for (int n = 0; n < neighbours; n++) {
            labels.add(texts.get(Integer.parseInt(t[i++])));
            waits.add(Long.parseLong(t[i++]));
        }
        List<String> owners = null;
        long throttled = -1;
        if (i < t.length) {
            owners = new ArrayList<>();
            for (int n = 0; n < neighbours; n++) {
                owners.add(texts.get(Integer.parseInt(t[i++])));
            }
            if (i < t.length) {
                throttled = Long.parseLong(t[i++]);
            }
        }
        if (i != t.length) {
            throw new IllegalArgumentException((t.length - i) + " numbers too many");
        }
        return new Row(node, policy, stage, branch, step, new MeasureRecord(id, label, source, figures, labels, waits, owners, notes, throttled));
    }

    private static int indexOf(final String s, final List<String> texts, final Map<String, Integer> index) {
        if (s == null) {
            return NONE;
        }
        return index.computeIfAbsent(s, k -> {
            texts.add(k);
            return texts.size() - 1;
        });
    }

    private static String textAt(final List<String> texts, final String number) {
        int i = Integer.parseInt(number);
        return i == NONE ? null : texts.get(i);
    }
}
