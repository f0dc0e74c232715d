package dev.schedpolicy.engine.agent;

import java.io.Serial;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

/**
 * What a build's launches gave up for guarded steps of other builds (or its own): per guarding build, how long its
 * launches were lowered and how many times, so its console and page can say "yielded for 41.0 s in all (3 times) to
 * guarded steps of tests #88". Each reader is told the names of the guarding builds whose job they may read, and only a
 * count of the rest. Kept in the lowered build (build.xml), so it is bounded and its fields are plain.
 */
public final class YieldLedger implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;
    /** The most guarding builds a build keeps by name; the others are added up. */
    public static final int MAX_GUARDS = 20;

    /** One guarding build (a class, not a record: XStream sets the fields of what Jenkins keeps). */
    public static final class Entry implements Serializable {
        @Serial
        private static final long serialVersionUID = 1L;
        private final String owner;
        private final String label;
        private long millis;
        private int times;

        Entry(final String owner, final String label) {
            this.owner = owner;
            this.label = label;
        }

        /** The full name of the guarding build's job. */
        public String owner() {
            return owner;
        }

        /** The guarding build as its job's readers know it, e.g. "tests #88". */
        public String label() {
            return label;
        }

        public long millis() {
            return millis;
        }

        public int times() {
            return times;
        }
    }

    private final ArrayList<Entry> entries = new ArrayList<>();
    /** Guarding builds beyond {@link #MAX_GUARDS}, with their time and times. */
    private int moreGuards;
    private long moreMillis;
    private int moreTimes;

    /**
     * Adds what one guard took from one of this build's launches: {@code millis} lowered, {@code times} times, for the
     * build {@code label} of job {@code owner}.
     */
    public synchronized void add(final String owner, final String label, final long millis, final int times) {
        if (millis < 0 || times < 0) {
            throw new IllegalArgumentException("a yield is a time and a count of 0 or more, not " + millis + " ms, " + times);
        }
        for (Entry e : entries) {
            if (e.owner.equals(owner) && e.label.equals(label)) {
                e.millis += millis;
                e.times += times;
                return;
            }
        }
        if (entries.size() < MAX_GUARDS) {
            Entry e = new Entry(owner, label);
            e.millis = millis;
            e.times = times;
            entries.add(e);
        } else {
            moreGuards++;
            moreMillis += millis;
            moreTimes += times;
        }
    }

    public synchronized boolean isEmpty() {
        return entries.isEmpty() && moreGuards == 0;
    }

    /** How long the build's launches were lowered, all guards together. */
    public synchronized long millis() {
        return entries.stream().mapToLong(Entry::millis).sum() + moreMillis;
    }

    /** How many times they were lowered, all guards together. */
    public synchronized int times() {
        return entries.stream().mapToInt(Entry::times).sum() + moreTimes;
    }

    /**
     * The guarding builds as a reader who may read the jobs {@code mayName} accepts (by full name) sees them, each with
     * its time: "tests #88 (41.0 s)", then the others added up: "2 other builds (3.5 s)".
     */
    public synchronized List<String> names(final Predicate<String> mayName) {
        List<String> out = new ArrayList<>();
        int others = moreGuards;
        long otherMillis = moreMillis;
        for (Entry e : entries) {
            if (!e.owner.isEmpty() && !e.label.isEmpty() && mayName.test(e.owner)) {
                out.add(e.label + " (" + seconds(e.millis) + ")");
            } else {
                others++;
                otherMillis += e.millis;
            }
        }
        if (others > 0) {
            out.add(others + (others == 1 ? " other build" : " other builds") + " (" + seconds(otherMillis) + ")");
        }
        return out;
    }

    /**
     * One line for a reader who may read the jobs {@code mayName} accepts: "yielded for 41.0 s in all (3 times) to
     * guarded steps of tests #88 (41.0 s)".
     */
    public synchronized String line(final Predicate<String> mayName) {
        int t = times();
        return String.format(Locale.ROOT, "yielded for %s in all (%d %s) to guarded steps of %s", seconds(millis()), t,
                t == 1 ? "time" : "times", String.join(", ", names(mayName)));
    }

    private static String seconds(final long millis) {
        return String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
    }
}
