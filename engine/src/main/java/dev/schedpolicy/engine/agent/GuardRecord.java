package dev.schedpolicy.engine.agent;

import dev.schedpolicy.engine.guard.GuardReport;

import java.io.Serial;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the guard did for one guarded launch, as the controller receives it (remoting-safe fields, like
 * {@link MeasureRecord}): the figures of the engine's {@link GuardReport} and, per lowered process, the launch of this
 * agent it belonged to with that launch's owner and label (as the controller named it; "" when it did not), so that a
 * reader sees names only where they may ({@link GuardSummary}).
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
    private final ArrayList<Long> loweredMillis = new ArrayList<>();
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
            loweredMillis.add(l.millis());
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

    public long runnableMillis() {
        return runnableMillis;
    }

    public long waitMillis() {
        return waitMillis;
    }

    /** Of {@link #waitMillis()}, the wait while the guard had lowered nothing. */
    public long waitUnloweredMillis() {
        return waitUnloweredMillis;
    }

    public long actingMillis() {
        return actingMillis;
    }

    public List<String> notes() {
        return List.copyOf(notes);
    }

    /** How many times the guard lowered the process {@code pid} (0: not one of its). */
    public int timesOf(final long pid) {
        int i = loweredPids.indexOf(pid);
        return i < 0 ? 0 : loweredTimes.get(i);
    }

    /** How long the guard kept the process {@code pid} lowered, all its times together (0: not one of its). */
    public long millisOf(final long pid) {
        int i = loweredPids.indexOf(pid);
        return i < 0 ? 0 : loweredMillis.get(i);
    }

    /** What one lowered launch of this agent gave up for the guarded launch: how long it was lowered, how many times. */
    public record LaunchYield(String launch, long millis, int times) {
    }

    /**
     * Per lowered launch of a known id, how long and how many times it yielded: its processes were lowered together, so
     * the longest of them is the launch's time (a process of no known launch is left out: no build is told of it).
     */
    public List<LaunchYield> yields() {
        Map<String, LaunchYield> byLaunch = new LinkedHashMap<>();
        for (int i = 0; i < loweredPids.size(); i++) {
            String launch = loweredLaunches.get(i);
            if (launch.isEmpty()) {
                continue;
            }
            LaunchYield y = new LaunchYield(launch, loweredMillis.get(i), loweredTimes.get(i));
            byLaunch.merge(launch, y, (a, b) -> new LaunchYield(launch, Math.max(a.millis(), b.millis()),
                    Math.max(a.times(), b.times())));
        }
        return List.copyOf(byLaunch.values());
    }

    /** The full name of the job the launch belongs to, "" when not known. */
    public String ownerOf(final String launch) {
        return owners.getOrDefault(launch, "");
    }

    /** The launch's name as the controller gave it, "" when not known. */
    public String labelOf(final String launch) {
        return labels.getOrDefault(launch, "");
    }
}
