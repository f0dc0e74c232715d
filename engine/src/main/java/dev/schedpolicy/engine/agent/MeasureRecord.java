package dev.schedpolicy.engine.agent;

import dev.schedpolicy.engine.measure.Neighbour;
import dev.schedpolicy.engine.measure.StepMeasure;

import java.io.Serial;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/** One measured launch as the controller keeps it: the engine's {@link StepMeasure} in remoting-safe fields. */
public final class MeasureRecord implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;

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
    private final long otherWaitNanos;
    private final ArrayList<String> notes;
    private final ArrayList<String> lines;
    private final boolean ended;

    MeasureRecord(final String id, final StepMeasure m, final boolean ended) {
        this.id = id;
        this.label = m.label();
        this.source = m.source();
        this.wallNanos = m.wallNanos();
        this.cpuNanos = m.cpuNanos();
        this.sampledCpuNanos = m.sampledCpuNanos();
        this.waitNanos = m.waitNanos();
        this.coveragePermille = m.coveragePermille().orElse(-1);
        for (Neighbour n : m.neighbours()) {
            neighbourLabels.add(n.label());
            neighbourWaitNanos.add(n.waitNanos());
        }
        this.otherWaitNanos = m.otherWaitNanos();
        this.notes = new ArrayList<>(m.notes());
        this.lines = new ArrayList<>(m.describe());
        this.ended = ended;
        if (!ended) {
            notes.add("the build ended while processes of this launch still ran: measured up to then");
            lines.add("note: the build ended while processes of this launch still ran: measured up to then");
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

    /** Run-queue wait over the runnable time the samples saw, 0..1 (0 when not measured). */
    public double waitShare() {
        long runnable = sampledCpuNanos + Math.max(0, waitNanos);
        return runnable == 0 ? 0 : (double) Math.max(0, waitNanos) / runnable;
    }

    public long coveragePermille() {
        return coveragePermille;
    }

    public List<String> neighbourLabels() {
        return List.copyOf(neighbourLabels);
    }

    public List<Long> neighbourWaitNanos() {
        return List.copyOf(neighbourWaitNanos);
    }

    public long otherWaitNanos() {
        return otherWaitNanos;
    }

    public List<String> notes() {
        return List.copyOf(notes);
    }

    /** The figures in words, one line each (as the CLI prints them). */
    public List<String> lines() {
        return List.copyOf(lines);
    }

    /** Whether every process of the launch had exited when it was collected. */
    public boolean ended() {
        return ended;
    }
}
