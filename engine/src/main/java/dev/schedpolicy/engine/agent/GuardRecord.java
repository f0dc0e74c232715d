package dev.schedpolicy.engine.agent;

import dev.schedpolicy.engine.guard.GuardReport;

import java.io.Serial;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the guard did for one guarded launch, as the controller receives it (remoting-safe fields, like
 * {@link MeasureRecord}): the figures of the engine's {@link GuardReport} and, per lowered process, the launch of this
 * agent it belonged to with that launch's owner and label (as the controller named it; "" when it did not), so that a
 * reader sees names only where they may.
 */
public final class GuardRecord implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;
    /** How a console names a lowered launch of another job: never its name. */
    public static final String ANOTHER_LAUNCH = "another launch on this agent";

    private final String id;
    private final long runnableMillis;
    private final long waitMillis;
    private final long waitUnloweredMillis;
    private final long actingMillis;
    private final int actions;
    private final boolean restored;
    private final ArrayList<String> notes;
    /** Per lowered process: its PID, its launch ("" unknown) and how many times it was lowered. */
    private final ArrayList<Long> loweredPids = new ArrayList<>();
    private final ArrayList<String> loweredLaunches = new ArrayList<>();
    private final ArrayList<Integer> loweredTimes = new ArrayList<>();
    private final LinkedHashMap<String, String> owners;
    private final LinkedHashMap<String, String> labels;

    GuardRecord(final String id, final GuardReport report, final Map<Long, String> launchOf, final Map<String, String> owners,
            final Map<String, String> labels) {
        this.id = id;
        this.runnableMillis = report.runnableMillis();
        this.waitMillis = report.waitMillis();
        this.waitUnloweredMillis = report.waitUnloweredMillis();
        this.actingMillis = report.actingMillis();
        this.actions = report.actions();
        this.restored = report.restored();
        this.notes = new ArrayList<>(report.notes());
        for (GuardReport.LoweredTime l : report.lowered()) {
            loweredPids.add(l.competitor().pid());
            loweredLaunches.add(launchOf.getOrDefault(l.competitor().pid(), ""));
            loweredTimes.add(l.times());
        }
        this.owners = new LinkedHashMap<>(owners);
        this.labels = new LinkedHashMap<>(labels);
    }

    /** The guarded launch's id. */
    public String id() {
        return id;
    }

    /** How many times the guard started lowering. */
    public int actions() {
        return actions;
    }

    /** Whether everything it lowered was put back. */
    public boolean restored() {
        return restored;
    }

    /** The processes it lowered. */
    public List<Long> loweredPids() {
        return List.copyOf(loweredPids);
    }

    /** The launch a lowered process belonged to ("" when unknown). */
    public String launchOf(final long pid) {
        int i = loweredPids.indexOf(pid);
        return i < 0 ? "" : loweredLaunches.get(i);
    }

    /**
     * One console line for a block's guarded launches, e.g. "guard: waited 0.4 s for a CPU in 21.0 s runnable (0.3 s of
     * it before it acted); acted 1 time for 19.8 s; lowered 1 launch, 1 time in all: another launch on this agent; all put
     * back". A lowered launch is named only when it belongs to {@code job}, the guarded build's own job.
     */
    public static String summary(final List<GuardRecord> records, final String job) {
        if (records.isEmpty()) {
            return "guard: no launch of the block reached the agent's guard";
        }
        long wait = 0;
        long runnable = 0;
        long unlowered = 0;
        long acting = 0;
        int actions = 0;
        boolean restored = true;
        List<String> named = new ArrayList<>();
        int others = 0;
        int launches = 0;
        int times = 0;
        List<String> notes = new ArrayList<>();
        for (GuardRecord r : records) {
            wait += r.waitMillis;
            runnable += r.runnableMillis;
            unlowered += r.waitUnloweredMillis;
            acting += r.actingMillis;
            actions += r.actions;
            restored &= r.restored;
            r.notes.stream().filter(n -> !notes.contains(n)).forEach(notes::add);
            Map<String, Integer> timesByLaunch = new LinkedHashMap<>();
            for (int i = 0; i < r.loweredPids.size(); i++) {
                String launch = r.loweredLaunches.get(i);
                // the processes of one launch are one launch; a process of no known launch counts on its own
                timesByLaunch.merge(launch.isEmpty() ? "pid " + r.loweredPids.get(i) : launch, r.loweredTimes.get(i), Math::max);
            }
            for (Map.Entry<String, Integer> e : timesByLaunch.entrySet()) {
                launches++;
                times += e.getValue();
                String owner = r.owners.getOrDefault(e.getKey(), "");
                if (!owner.isEmpty() && owner.equals(job)) {
                    String label = r.labels.getOrDefault(e.getKey(), "");
                    named.add(label.isEmpty() ? "a launch of this job" : label);
                } else {
                    others++;
                }
            }
        }
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "guard: waited %s for a CPU in %s runnable",
                seconds(wait), seconds(runnable)));
        if (actions == 0) {
            line.append("; never over the threshold, nothing lowered");
        } else {
            List<String> whom = new ArrayList<>(named);
            if (others > 0) {
                whom.add(others == 1 ? ANOTHER_LAUNCH : others + " other launches on this agent");
            }
            line.append(String.format(Locale.ROOT, " (%s of it before it acted); acted %d %s for %s; lowered %d %s, %d %s in"
                    + " all: %s", seconds(unlowered), actions, actions == 1 ? "time" : "times", seconds(acting), launches,
                    launches == 1 ? "launch" : "launches", times, times == 1 ? "time" : "times", String.join(", ", whom)));
            line.append(restored ? "; all put back" : "; NOT all put back");
        }
        if (!notes.isEmpty()) {
            line.append(" (").append(String.join("; ", notes)).append(')');
        }
        return line.toString();
    }

    private static String seconds(final long millis) {
        return String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
    }
}
