package dev.schedpolicy.engine.measure;

import dev.schedpolicy.engine.proc.SchedStat;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;

/**
 * What one step cost and waited.
 *
 * @param label            the step, as the caller named it
 * @param source           the kernel sources used, in words
 * @param wallNanos        from launch to the end of the step's main process
 * @param groupCpuNanos    CPU of every task of the step's accounting group, exited ones included (exact); empty
 *                         without a group
 * @param sampledCpuNanos  CPU of the tasks the schedstat samples saw
 * @param waitNanos        run-queue wait of the tasks the samples saw; -1 when schedstat is missing
 * @param pressureSomeMicros v2 group PSI "some" total: time in which at least one task of the step waited (exact,
 *                         exited tasks included); empty where there is no v2 group or no PSI
 * @param neighbours       the agent's other launches charged with parts of the wait
 * @param otherWaitNanos   the part of the wait charged to processes the agent did not launch
 * @param notes            what could not be measured, in words
 * @param throttledNanos   time the step's CPU quota held its group back (cpu.stat throttled time), which is not in
 *                         {@code waitNanos}; -1 when no quota applied to the step
 */
public record StepMeasure(String label, String source, long wallNanos, OptionalLong groupCpuNanos, long sampledCpuNanos,
        long waitNanos, OptionalLong pressureSomeMicros, List<Neighbour> neighbours, long otherWaitNanos, List<String> notes,
        long throttledNanos) {

    public StepMeasure {
        neighbours = List.copyOf(neighbours);
        notes = List.copyOf(notes);
    }

    /** A step no CPU quota held back. */
    @SuppressWarnings("checkstyle:ParameterNumber")
    public StepMeasure(final String label, final String source, final long wallNanos, final OptionalLong groupCpuNanos,
            final long sampledCpuNanos, final long waitNanos, final OptionalLong pressureSomeMicros,
            final List<Neighbour> neighbours, final long otherWaitNanos, final List<String> notes) {
        this(label, source, wallNanos, groupCpuNanos, sampledCpuNanos, waitNanos, pressureSomeMicros, neighbours,
                otherWaitNanos, notes, -1);
    }

    /** Whether a CPU quota applied to the step, so that {@link #throttledNanos()} says how long it held it back. */
    public boolean quotaApplied() {
        return throttledNanos >= 0;
    }

    public boolean waitMeasured() {
        return waitNanos >= 0;
    }

    /** The step's CPU: the group's exact counter where there is one, else what the samples saw. */
    public long cpuNanos() {
        return groupCpuNanos.orElse(sampledCpuNanos);
    }

    /** Run-queue wait over runnable time (wait + CPU) of the tasks the samples saw, 0..1. */
    public double waitShare() {
        return SchedStat.waitShare(waitNanos, sampledCpuNanos);
    }

    /** Share of the step's exact CPU that the samples saw, 0..1; empty without a group to compare with. */
    public OptionalLong coveragePermille() {
        if (groupCpuNanos.isEmpty() || groupCpuNanos.getAsLong() <= 0) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(Math.min(1000, sampledCpuNanos * 1000 / groupCpuNanos.getAsLong()));
    }

    /** The figures as lines for a terminal or a log. */
    public List<String> describe() {
        List<String> lines = new ArrayList<>();
        if (waitMeasured()) {
            lines.add(String.format(Locale.ROOT, "waited %.1f%% of its runnable time for a CPU (wait %s, CPU %s, wall %s)",
                    waitShare() * 100, seconds(waitNanos), seconds(cpuNanos()), seconds(wallNanos)));
        } else {
            lines.add(String.format(Locale.ROOT, "run-queue wait not measured (CPU %s, wall %s)", seconds(cpuNanos()),
                    seconds(wallNanos)));
        }
        if (quotaApplied()) {
            lines.add(String.format(Locale.ROOT, "held back %s by its CPU quota (the quota group's cpu.stat throttled time;"
                    + " not in the wait)", seconds(throttledNanos)));
        }
        OptionalLong coverage = coveragePermille();
        if (coverage.isPresent() && waitMeasured()) {
            long unseen = Math.max(0, groupCpuNanos.getAsLong() - sampledCpuNanos);
            lines.add(String.format(Locale.ROOT, "the samples saw %.1f%% of its CPU; the wait of the other %s of CPU"
                    + " (tasks that ended between samples) is not in the share", coverage.getAsLong() / 10.0, seconds(unseen)));
        }
        if (pressureSomeMicros.isPresent()) {
            lines.add(String.format(Locale.ROOT, "cgroup PSI cpu 'some' total %s (exited tasks included; PSI weights"
                    + " each CPU by its busy time, so it is not a sum of waits)", seconds(pressureSomeMicros.getAsLong() * 1000)));
        }
        if (waitMeasured() && waitNanos > 0) {
            StringBuilder who = new StringBuilder("waited beside: ");
            for (Neighbour n : neighbours) {
                who.append(n.label()).append(' ').append(percentOfWait(n.waitNanos())).append(", ");
            }
            who.append("other processes on the machine ").append(percentOfWait(otherWaitNanos));
            lines.add(who.toString());
        }
        lines.add("source: " + source);
        notes.forEach(n -> lines.add("note: " + n));
        return lines;
    }

    private String percentOfWait(final long nanos) {
        return String.format(Locale.ROOT, "%.0f%%", waitNanos <= 0 ? 0.0 : 100.0 * nanos / waitNanos);
    }

    static String seconds(final long nanos) {
        return String.format(Locale.ROOT, "%.2f s", nanos / 1e9);
    }
}
