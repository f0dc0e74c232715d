package dev.schedpolicy.engine.agent;

import dev.schedpolicy.engine.container.ContainerExecTasks;
import dev.schedpolicy.engine.measure.Neighbour;
import dev.schedpolicy.engine.measure.StepMeasure;
import dev.schedpolicy.engine.proc.SchedStat;

import java.io.Serial;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * One measured launch as the controller keeps it: the engine's {@link StepMeasure} in remoting-safe fields. A build
 * keeps one per launch (thousands in a long build), so its size must not grow with what ran beside it: it names the
 * {@link #MAX_NEIGHBOURS} neighbours charged the most and sums the rest, and keeps each figure once (no text copy).
 */
public final class MeasureRecord implements Serializable {
    /** How a reader sees a neighbour whose build they may not read: its part of the wait, never its name. */
    public static final String ANOTHER_BUILD = "another build";

    /**
     * A neighbour as a reader sees it.
     *
     * @param label     its name, or {@link #ANOTHER_BUILD}
     * @param waitNanos the launch's run-queue wait charged to it
     */
    public record Shown(String label, long waitNanos) {
    }

    @Serial
    private static final long serialVersionUID = 1L;

    /** The most neighbours a record names; a reader scans for the first few, and each name costs the build's file. */
    public static final int MAX_NEIGHBOURS = 5;

    private final String id;
    private final String label;
    private final String source;
    private final long wallNanos;
    private final long cpuNanos;
    private final long sampledCpuNanos;
    /** -1: run-queue wait not measured. */
    private final long waitNanos;
    /** -1: no exact CPU to compare the samples with. */
    private final long coveragePermille;
    private final ArrayList<String> neighbourLabels = new ArrayList<>();
    private final ArrayList<Long> neighbourWaitNanos = new ArrayList<>();
    /** Neighbours beyond {@link #MAX_NEIGHBOURS}: how many, and their part of the wait together (0 in older records). */
    private final int moreNeighbours;
    private final long moreNeighbourWaitNanos;
    /** Per neighbour, whose launch it was ({@link Neighbour#owner()}); null in records stored before owners were kept. */
    private final ArrayList<String> neighbourOwners;
    private final long otherWaitNanos;
    private final ArrayList<String> notes;
    private final boolean ended;
    /** Time a CPU quota held the launch back, not in {@link #waitNanos}; null: no quota (and records from before). */
    private final Long throttledNanos;

    /** A record as {@link LaunchTable} stored it; {@code throttledNanos} -1 for none. */
    @SuppressWarnings("checkstyle:ParameterNumber")
    MeasureRecord(final String id, final String label, final String source, final long[] figures,
            final List<String> neighbourLabels, final List<Long> neighbourWaitNanos, final List<String> neighbourOwners,
            final List<String> notes, final long throttledNanos) {
        this.throttledNanos = throttledNanos < 0 ? null : throttledNanos;
        this.id = id;
        this.label = label;
        this.source = source;
        this.wallNanos = figures[0];
        this.cpuNanos = figures[1];
        this.sampledCpuNanos = figures[2];
        this.waitNanos = figures[3];
        this.coveragePermille = figures[4];
        this.otherWaitNanos = figures[5];
        this.moreNeighbours = (int) figures[6];
        this.moreNeighbourWaitNanos = figures[7];
        this.ended = figures[8] != 0;
        this.neighbourLabels.addAll(neighbourLabels);
        this.neighbourWaitNanos.addAll(neighbourWaitNanos);
        this.neighbourOwners = neighbourOwners == null ? null : new ArrayList<>(neighbourOwners);
        this.notes = new ArrayList<>(notes);
    }

    /** The figures in the order {@link LaunchTable} keeps them, see the constructor above. */
    long[] figures() {
        return new long[] {wallNanos, cpuNanos, sampledCpuNanos, waitNanos, coveragePermille, otherWaitNanos, moreNeighbours,
            moreNeighbourWaitNanos, ended ? 1 : 0};
    }

    public MeasureRecord(final String id, final StepMeasure m, final boolean ended) {
        this.throttledNanos = m.quotaApplied() ? m.throttledNanos() : null;
        this.neighbourOwners = new ArrayList<>();
        this.id = id;
        this.label = m.label();
        this.source = m.source();
        this.wallNanos = m.wallNanos();
        this.cpuNanos = m.cpuNanos();
        this.sampledCpuNanos = m.sampledCpuNanos();
        this.waitNanos = m.waitNanos();
        this.coveragePermille = m.coveragePermille().orElse(-1);
        int more = 0;
        long moreWait = 0;
        // the meter sorts its neighbours most wait first
        for (Neighbour n : m.neighbours()) {
            if (neighbourLabels.size() < MAX_NEIGHBOURS) {
                neighbourLabels.add(n.label());
                neighbourWaitNanos.add(n.waitNanos());
                neighbourOwners.add(n.owner());
            } else {
                more++;
                moreWait += n.waitNanos();
            }
        }
        this.moreNeighbours = more;
        this.moreNeighbourWaitNanos = moreWait;
        this.otherWaitNanos = m.otherWaitNanos();
        this.notes = new ArrayList<>(m.notes());
        this.ended = ended;
        if (!ended) {
            notes.add("the build ended while processes of this launch still ran: measured up to then");
        }
    }

    public String id() {
        return id;
    }

    public String label() {
        return label;
    }

    public String source() {
        return source;
    }

    /**
     * Whether a container runtime started the launch's processes (an exec into a container of ours), measured through
     * the container's cgroup. Read from the source the engine wrote, so records stored in a build's table say it too.
     */
    public boolean inContainer() {
        return source != null && source.startsWith(ContainerExecTasks.SOURCE_PREFIX);
    }

    public long wallNanos() {
        return wallNanos;
    }

    public long cpuNanos() {
        return cpuNanos;
    }

    public long sampledCpuNanos() {
        return sampledCpuNanos;
    }

    public boolean waitMeasured() {
        return waitNanos >= 0;
    }

    public long waitNanos() {
        return waitNanos;
    }

    /** Whether a CPU quota applied to the launch, so that {@link #throttledNanos()} is its hold. */
    public boolean quotaApplied() {
        return throttledNanos != null;
    }

    /** Time the launch's CPU quota held it back (its group's cpu.stat throttled time), not in the wait; -1: no quota. */
    public long throttledNanos() {
        return throttledNanos == null ? -1 : throttledNanos;
    }

    /** Run-queue wait over the runnable time the samples saw, 0..1 (0 when not measured). */
    public double waitShare() {
        return SchedStat.waitShare(waitNanos, sampledCpuNanos);
    }

    public long coveragePermille() {
        return coveragePermille;
    }

    /** Per neighbour in {@link #neighbourLabels()}, whose launch it was; null when not known (stored before owners were kept). */
    List<String> neighbourOwners() {
        return neighbourOwners == null ? null : List.copyOf(neighbourOwners);
    }

    public List<String> neighbourLabels() {
        return List.copyOf(neighbourLabels);
    }

    public List<Long> neighbourWaitNanos() {
        return List.copyOf(neighbourWaitNanos);
    }

    /** How many launches beside it ran without a name here, and the part of the wait charged to them together. */
    public int moreNeighbours() {
        return moreNeighbours;
    }

    public long moreNeighbourWaitNanos() {
        return moreNeighbourWaitNanos;
    }

    /**
     * The neighbours as a reader may see them, most wait first: a neighbour whose owner {@code mayRead} refuses, or
     * whose owner is not known (a record stored before owners were kept), is {@link #ANOTHER_BUILD}, with its part of the
     * wait; a neighbour of no owner (a launch outside any build) keeps its label, which names no build.
     *
     * @param mayRead whether the reader may read the owner's builds (in Jenkins: Item.READ on the job of that full name)
     */
    public List<Shown> neighboursFor(final Predicate<String> mayRead) {
        List<Shown> out = new ArrayList<>();
        for (int i = 0; i < neighbourLabels.size(); i++) {
            String owner = neighbourOwners == null || i >= neighbourOwners.size() ? null : neighbourOwners.get(i);
            boolean shown = owner != null && (owner.isEmpty() || mayRead.test(owner));
            out.add(new Shown(shown ? neighbourLabels.get(i) : ANOTHER_BUILD, neighbourWaitNanos.get(i)));
        }
        return out;
    }

    public long otherWaitNanos() {
        return otherWaitNanos;
    }

    public List<String> notes() {
        return List.copyOf(notes);
    }

    /** Whether every process of the launch had exited when it was collected. */
    public boolean ended() {
        return ended;
    }

    /** The figures in a line, for a test's or a log's message. */
    @Override
    public String toString() {
        return label + ": wait " + waitNanos + " ns of " + (sampledCpuNanos + Math.max(0, waitNanos)) + " ns runnable, CPU "
                + cpuNanos + " ns, wall " + wallNanos + " ns, beside " + neighbourLabels + " " + neighbourWaitNanos
                + (moreNeighbours > 0 ? " and " + moreNeighbours + " more " + moreNeighbourWaitNanos : "") + ", other "
                + otherWaitNanos + (quotaApplied() ? ", held by its quota " + throttledNanos + " ns" : "") + "; source " + source + "; notes " + notes;
    }
}
