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
 * What the guard did for one guarded launch, as the controller receives it: the engine's {@link GuardReport} and, per
 * lowered process, the launch of this agent it belonged to with that launch's owner and label (as the controller named
 * it; "" when it did not), so that a reader sees names only where they may.
 */
public final class GuardRecord implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;
    /** How a console names a lowered launch of another job: never its name. */
    public static final String ANOTHER_LAUNCH = "another launch on this agent";

    private final String id;
    private final GuardReport report;
    private final LinkedHashMap<Long, String> launchOf;
    private final LinkedHashMap<String, String> owners;
    private final LinkedHashMap<String, String> labels;

    GuardRecord(final String id, final GuardReport report, final Map<Long, String> launchOf, final Map<String, String> owners,
            final Map<String, String> labels) {
        this.id = id;
        this.report = report;
        this.launchOf = new LinkedHashMap<>(launchOf);
        this.owners = new LinkedHashMap<>(owners);
        this.labels = new LinkedHashMap<>(labels);
    }

    public String id() {
        return id;
    }

    public GuardReport report() {
        return report;
    }

    /** The launch a lowered process belonged to ("" when unknown). */
    public String launchOf(final long pid) {
        return launchOf.getOrDefault(pid, "");
    }

    /**
     * One console line for a block's guarded launches, e.g. "guard: waited 0.4 s for a CPU in 21.0 s runnable (0.3 s of
     * it before it acted); acted 1 time for 19.8 s; lowered 1 launch, 1 time in all: another launch on this agent". A lowered
     * launch is named only when it belongs to {@code job}, the guarded build's own job.
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
            GuardReport g = r.report;
            wait += g.waitMillis();
            runnable += g.runnableMillis();
            unlowered += g.waitUnloweredMillis();
            acting += g.actingMillis();
            actions += g.actions();
            restored &= g.restored();
            g.notes().stream().filter(n -> !notes.contains(n)).forEach(notes::add);
            Map<String, Integer> timesByLaunch = new LinkedHashMap<>();
            for (GuardReport.LoweredTime l : g.lowered()) {
                String launch = r.launchOf(l.competitor().pid());
                // processes of one launch are one launch; an unattributed process counts on its own
                timesByLaunch.merge(launch.isEmpty() ? "pid " + l.competitor().pid() : launch, l.times(), Math::max);
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
