package dev.schedpolicy.engine.agent;

import java.io.Serial;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;

/**
 * What the guard did for one guarded block, all its agents' {@link GuardRecord}s together: the figures, and each launch
 * it lowered with the job it belongs to, so that every reader (the build's console, a viewer of its page) is told the
 * names they may read and only a count of the rest. Kept in the guarded build, so its fields are plain and bounded.
 */
public final class GuardSummary implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;
    /** The most lowered launches a block keeps by name; a busy agent's others are counted. */
    public static final int MAX_LOWERED = 20;
    /** The most distinct notes a block keeps (a guard's own are bounded; a block may hold many guarded launches). */
    static final int MAX_NOTES = 20;

    /** A launch the guard lowered (a class, not a record: Jenkins keeps it in build.xml, whose XStream sets fields). */
    public static final class Lowered implements Serializable {
        @Serial
        private static final long serialVersionUID = 1L;
        private final String owner;
        private final String label;
        private final int times;

        /**
         * @param owner the full name of its job, "" when the agent did not know it
         * @param label its name as the controller gave it (a build), "" when not known
         * @param times how many times the guard lowered it
         */
        public Lowered(final String owner, final String label, final int times) {
            this.owner = owner;
            this.label = label;
            this.times = times;
        }

        public String owner() {
            return owner;
        }

        public String label() {
            return label;
        }

        public int times() {
            return times;
        }
    }

    private final long waitMillis;
    private final long runnableMillis;
    private final long unloweredMillis;
    private final long actingMillis;
    private final int actions;
    private final boolean restored;
    private final ArrayList<String> notes;
    private final ArrayList<Lowered> lowered;
    /** Lowered launches beyond {@link #MAX_LOWERED}, and how many times in all. */
    private final int moreLaunches;
    private final int moreTimes;
    /** Launches that reached a guard; 0: none did. */
    private final int guarded;
    /** Launches marked guarded whose agent had no record of them when the block ended (its connection or JVM ended). */
    private final int lost;
    /** The controller restarted while the block ran: which launches were guarded is not known. */
    private final boolean restarted;

    private GuardSummary(final List<GuardRecord> records, final int lost, final boolean restarted) {
        this.lost = lost;
        this.restarted = restarted;
        long wait = 0;
        long runnable = 0;
        long unlowered = 0;
        long acting = 0;
        int acted = 0;
        boolean back = true;
        List<String> said = new ArrayList<>();
        Map<String, Lowered> byLaunch = new LinkedHashMap<>();
        for (GuardRecord r : records) {
            wait += r.waitMillis();
            runnable += r.runnableMillis();
            unlowered += r.waitUnloweredMillis();
            acting += r.actingMillis();
            acted += r.actions();
            back &= r.restored();
            r.notes().stream().filter(n -> !said.contains(n) && said.size() < MAX_NOTES).forEach(said::add);
            Map<String, Lowered> ofRecord = new LinkedHashMap<>();
            for (long pid : r.loweredPids()) {
                // the processes of one launch are one launch, lowered together; a process of no known launch counts on its own
                String launch = r.launchOf(pid);
                String key = launch.isEmpty() ? r.id() + "/pid " + pid : launch;
                Lowered l = new Lowered(r.ownerOf(launch), r.labelOf(launch), r.timesOf(pid));
                ofRecord.merge(key, l, (a, b) -> new Lowered(a.owner(), a.label(), Math.max(a.times(), b.times())));
            }
            // a launch that several of the block's guards lowered is one launch, lowered by each of them
            ofRecord.forEach((key, l) -> byLaunch.merge(key, l, (a, b) -> new Lowered(a.owner(), a.label(), a.times() + b.times())));
        }
        this.waitMillis = wait;
        this.runnableMillis = runnable;
        this.unloweredMillis = unlowered;
        this.actingMillis = acting;
        this.actions = acted;
        this.restored = back;
        this.notes = new ArrayList<>(said);
        List<Lowered> all = new ArrayList<>(byLaunch.values());
        this.lowered = new ArrayList<>(all.subList(0, Math.min(MAX_LOWERED, all.size())));
        List<Lowered> rest = all.subList(lowered.size(), all.size());
        this.moreLaunches = rest.size();
        this.moreTimes = rest.stream().mapToInt(Lowered::times).sum();
        this.guarded = records.size();
    }

    /** The block's guarded launches together. */
    public static GuardSummary of(final List<GuardRecord> records) {
        return of(records, 0);
    }

    /** The same, with {@code lost} guarded launches whose agent had no record of them (see {@link #lost()}). */
    public static GuardSummary of(final List<GuardRecord> records, final int lost) {
        return new GuardSummary(records, lost, false);
    }

    /** A block whose guarded launches the controller lost track of when it restarted meanwhile. */
    public static GuardSummary afterRestart() {
        return new GuardSummary(List.of(), 0, true);
    }

    /**
     * Guarded launches whose agent had no record of them at the block's end: the agent's connection or JVM ended while
     * they ran, and with it their guard (an agent whose next JVM connects sends home what that guard had lowered).
     */
    public int lost() {
        return lost;
    }

    public long waitMillis() {
        return waitMillis;
    }

    public long runnableMillis() {
        return runnableMillis;
    }

    /** Of {@link #waitMillis()}, the wait while the guard had not lowered anything (yet). */
    public long unloweredMillis() {
        return unloweredMillis;
    }

    public long actingMillis() {
        return actingMillis;
    }

    public int actions() {
        return actions;
    }

    public boolean restored() {
        return restored;
    }

    public List<String> notes() {
        return List.copyOf(notes);
    }

    public List<Lowered> lowered() {
        return List.copyOf(lowered);
    }

    /** How many launches it lowered. */
    public int loweredLaunches() {
        return lowered.size() + moreLaunches;
    }

    /** How many times it lowered them, all launches together. */
    public int loweredTimes() {
        return lowered.stream().mapToInt(Lowered::times).sum() + moreTimes;
    }

    /**
     * One line for a reader who may read the jobs {@code mayName} accepts (by full name), e.g. "guard: waited 0.4 s for
     * a CPU in 21.0 s runnable (0.3 s of it before it acted); acted 1 time for 19.8 s; lowered 1 launch, 1 time in all:
     * another launch on this agent; all put back". Any other launch is counted, never named.
     */
    public String line(final Predicate<String> mayName) {
        if (restarted) {
            return "guard: the controller restarted while the block ran, so what its guard did is not known; a guard ends"
                    + " with its agent's connection, and what it had lowered goes home as the agent connects again";
        }
        if (guarded == 0 && lost > 0) {
            return "guard: " + lostWords() + "; what it had lowered goes home as the agent connects again";
        }
        if (guarded == 0) {
            return "guard: no launch of the block reached the agent's guard";
        }
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "guard: waited %s for a CPU in %s runnable",
                seconds(waitMillis), seconds(runnableMillis)));
        if (actions == 0) {
            line.append("; never over the threshold, nothing lowered");
        } else {
            int launches = loweredLaunches();
            int times = loweredTimes();
            line.append(String.format(Locale.ROOT, " (%s of it before it acted); acted %d %s for %s; lowered %d %s, %d %s in"
                    + " all: %s", seconds(unloweredMillis), actions, actions == 1 ? "time" : "times", seconds(actingMillis),
                    launches, launches == 1 ? "launch" : "launches", times, times == 1 ? "time" : "times",
                    String.join(", ", names(mayName))));
            line.append(restored ? "; all put back" : "; NOT all put back");
        }
        if (!notes.isEmpty()) {
            line.append(" (").append(String.join("; ", notes)).append(')');
        }
        if (lost > 0) {
            line.append("; also ").append(lostWords());
        }
        return line.toString();
    }

    private String lostWords() {
        return String.format(Locale.ROOT, "no record of %d guarded %s: the agent's connection ended while %s ran, and %s"
                + " guard with it", lost, lost == 1 ? "launch" : "launches", lost == 1 ? "it" : "they", lost == 1 ? "its" : "their");
    }

    /** The lowered launches as a reader who may read the jobs {@code mayName} accepts sees them: names, then a count. */
    public List<String> names(final Predicate<String> mayName) {
        List<String> whom = new ArrayList<>();
        int others = moreLaunches;
        for (Lowered l : lowered) {
            if (!l.owner().isEmpty() && mayName.test(l.owner())) {
                whom.add(l.label().isEmpty() ? "a launch of " + l.owner() : l.label());
            } else {
                others++;
            }
        }
        if (others > 0) {
            whom.add(others == 1 ? GuardRecord.ANOTHER_LAUNCH : others + " other launches on this agent");
        }
        return whom;
    }

    private static String seconds(final long millis) {
        return String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
    }
}
