package dev.schedpolicy.engine.guard;

import dev.schedpolicy.engine.proc.SchedStat;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What the guard saw and did for one guarded step.
 *
 * @param guardedMillis     how long the step was guarded
 * @param runnableMillis    the step's runnable time (on a CPU or waiting for one)
 * @param waitMillis        of that, waiting for a CPU
 * @param waitUnloweredMillis the part of the wait while nothing was lowered (before the guard acted, or after it put
 *                          things back)
 * @param actingMillis      how long anything was lowered, in all
 * @param actions           how many times it started lowering (a crossing while nothing was lowered)
 * @param firstActionMillis from the start of the first period over the threshold to the first lowering; -1 if none
 * @param lowered           per competitor, how long and how often
 * @param notes             what it could not do, in words (a lowering refused, a restore that failed)
 * @param restored          whether everything it lowered was put back
 */
public record GuardReport(long guardedMillis, long runnableMillis, long waitMillis, long waitUnloweredMillis,
        long actingMillis, int actions, long firstActionMillis, List<LoweredTime> lowered, List<String> notes, boolean restored) {
    public GuardReport {
        lowered = List.copyOf(lowered);
        notes = List.copyOf(notes);
    }

    /** One competitor: how it was lowered, for how long in all, how many times. */
    public record LoweredTime(Competitor competitor, String means, long millis, int times) {
    }

    /** Short lines for a console or stderr: the wait, whom it lowered, and whether all is back. */
    public List<String> describe() {
        List<String> out = new ArrayList<>();
        double share = 100.0 * SchedStat.waitShare(waitMillis, runnableMillis - waitMillis);
        out.add(String.format(Locale.ROOT, "waited %s for a CPU in %s (%.1f%% of its runnable time)%s",
                seconds(waitMillis), seconds(guardedMillis), share,
                actions == 0 ? "; never over the threshold, nothing lowered"
                        : "; " + seconds(waitUnloweredMillis) + " of it while nothing was lowered"));
        if (!lowered.isEmpty()) {
            List<String> names = new ArrayList<>();
            for (LoweredTime l : lowered) {
                names.add(l.competitor() + " for " + seconds(l.millis()) + (l.times() > 1 ? ", " + l.times() + " times" : ""));
            }
            out.add("lowered " + String.join("; ", names) + " (" + lowered.get(0).means() + "); first action "
                    + firstActionMillis + " ms after the wait crossed the threshold");
            out.add(restored ? "everything it lowered is back as it was" : "NOT everything it lowered could be put back:"
                    + " see the notes");
        }
        for (String n : notes) {
            out.add(n);
        }
        return out;
    }

    private static String seconds(final long millis) {
        return String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
    }
}
