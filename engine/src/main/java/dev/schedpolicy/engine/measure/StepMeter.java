package dev.schedpolicy.engine.measure;

import dev.schedpolicy.engine.proc.ProcFs;
import dev.schedpolicy.engine.proc.SchedStat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Supplier;

/**
 * Measures one step: made before the launch (so the command can join its accounting group before its first
 * instruction), attached to the launched process, sampled by its {@link MeasureBook}, finished when the step ends.
 * Faults end in a note, never in an exception: measuring must not fail a build.
 */
public final class StepMeter {
    private static final String JOIN_SCRIPT = "echo 0 > \"$0\" 2>/dev/null; exec \"$@\"";

    private final String label;
    private final String owner;
    private final ProcFs proc;
    private final boolean schedstat;
    private final List<String> notes = new ArrayList<>();
    /** Per neighbour (label and owner: two owners' launches may carry the same label), the wait charged to it. */
    private final Map<Neighbour, Long> charged = new LinkedHashMap<>();
    private final TaskSampler sampler;
    private Optional<AccountingGroup> group;
    /** The step's tasks when a container runtime started them (see {@link TaskSource}); null for a step we started. */
    private final TaskSource tasks;
    private String source;
    private long rootPid = -1;
    private long startNanos;
    private SchedStat last = SchedStat.ZERO;
    private long otherWait;
    private long samples;
    private StepMeasure result;
    /** The step's CPU quota group's throttled time so far; null when no quota holds the step back. */
    private Supplier<OptionalLong> throttledReader;
    private long throttledSeen;
    /** The hold before {@link #throttledBy}: the samples' wait from then on is set against the hold since. */
    private long throttledBefore = -1;
    /** Run-queue wait so far as the samples saw it, and the part of it that is not the quota's hold. */
    private long rawWait;
    private long waitApart;

    StepMeter(final String label, final ProcFs proc, final AccountingGroups.Choice choice) {
        this(label, "", proc, choice);
    }

    StepMeter(final String label, final String owner, final ProcFs proc, final AccountingGroups.Choice choice) {
        this.label = label;
        this.owner = owner;
        this.proc = proc;
        startNanos = System.nanoTime();
        // opened before the step's first process: none of its tasks is older than the meter
        this.sampler = new TaskSampler(proc, System::nanoTime, startNanos);
        this.schedstat = proc.hasSchedStat();
        this.tasks = null;
        this.group = choice.group();
        if (group.isPresent()) {
            source = group.get().kind().words();
        } else {
            source = "the process tree from /proc (no accounting group: " + choice.reason() + ")";
            notes.add("without an accounting group, processes that leave the step's process tree (setsid, daemonised,"
                    + " or orphaned when their parent ends) are not counted, and CPU is what the samples saw");
        }
        source += schedstat ? " + per-task /proc/TID/schedstat, sampled" : "";
        if (!schedstat) {
            notes.add("this kernel keeps no per-task schedstat (CONFIG_SCHED_INFO off): run-queue wait not measured");
        }
    }

    /** A step whose tasks {@code tasks} finds (a container's exec): sampled from now on, no accounting group of ours. */
    StepMeter(final String label, final String owner, final ProcFs proc, final TaskSource tasks) {
        this.label = label;
        this.owner = owner;
        this.proc = proc;
        this.sampler = new TaskSampler(proc);
        this.schedstat = proc.hasSchedStat();
        this.tasks = tasks;
        this.group = Optional.empty();
        this.source = tasks.words() + (schedstat ? " + per-task /proc/TID/schedstat, sampled" : "");
        if (!schedstat) {
            notes.add("this kernel keeps no per-task schedstat (CONFIG_SCHED_INFO off): run-queue wait not measured");
        }
        // started: the runtime starts its processes, there is no process of ours to attach
        this.rootPid = 0;
        startNanos = System.nanoTime();
    }

    /** Whether a container runtime started the step's processes ({@link TaskSource}), not a launch of ours. */
    public boolean inContainer() {
        return tasks != null;
    }

    public String label() {
        return label;
    }

    /** Whose step it is, as the caller named it ("" for none); other steps' neighbours carry it. */
    public String owner() {
        return owner;
    }

    /**
     * What to put before the command so that it enters the accounting group itself before it execs (so nothing it
     * starts escapes); empty when there is no group. The prefix never fails the command: if it cannot join, the
     * meter notices in {@link #attach}.
     */
    public List<String> commandPrefix() {
        return group.map(g -> List.of("/bin/sh", "-c", JOIN_SCRIPT, g.procsFile().toString())).orElse(List.of());
    }

    /** The launched process (the one that ran the prefix). */
    public synchronized void attach(final long pid) {
        rootPid = pid;
        if (group.isPresent()) {
            try {
                group.get().add(pid);
            } catch (RuntimeException e) {
                notes.add("could not put the step into its accounting group (" + e.getMessage() + "): measured by its"
                        + " process tree instead");
                dissolveQuietly();
                source = "the process tree from /proc" + (schedstat ? " + per-task /proc/TID/schedstat, sampled" : "");
            }
        }
    }

    /**
     * The step runs under a CPU quota: {@code throttledNanos} reads how long its quota group was held back so far. A
     * throttled task stays queued, so schedstat counts that hold as run-queue wait though no other task had the CPU;
     * from now on it is kept apart and left out of the wait (the wait that remains is at least zero per step).
     */
    public synchronized void throttledBy(final Supplier<OptionalLong> throttledNanos) {
        throttledReader = throttledNanos;
        readThrottled();
        throttledBefore = throttledSeen;
    }

    /** The hold since {@link #throttledBy}, which the wait the samples saw since then counted too. */
    private long holdSinceReader() {
        return throttledSeen - Math.max(0, throttledBefore);
    }

    private void readThrottled() {
        try {
            OptionalLong t = throttledReader.get();
            if (t.isPresent()) {
                throttledSeen = Math.max(throttledSeen, t.getAsLong());
            }
        } catch (RuntimeException e) {
            // the group is gone (reaped once empty): its last reading stands
        }
    }

    /** Whether the step started and none of its processes runs any more. */
    synchronized boolean empty() {
        if (rootPid < 0 || result != null) {
            return false;
        }
        try {
            if (tasks != null) {
                return tasks.ended();
            }
            return group.isPresent() ? group.get().processes().isEmpty()
                    : ProcessHandle.of(rootPid).map(h -> !h.isAlive()).orElse(true);
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** One sample: the CPU and wait the step added since the last one. */
    synchronized SchedStat sample() {
        if (rootPid < 0 || result != null || !schedstat) {
            return SchedStat.ZERO;
        }
        List<Long> tids;
        try {
            tids = tasks != null ? tasks.threads() : group.isPresent() ? group.get().threads() : treeTasks();
        } catch (RuntimeException e) {
            tids = List.of();
        }
        SchedStat now = sampler.sample(tids);
        samples++;
        SchedStat delta = now.minus(last);
        last = now;
        if (throttledReader == null) {
            return delta;
        }
        // cumulative, so that a hold read a sample late is still taken out of the wait it was counted in
        rawWait += delta.runQueueWaitNanos();
        readThrottled();
        long apart = Math.max(waitApart, rawWait - holdSinceReader());
        long waitDelta = apart - waitApart;
        waitApart = apart;
        return new SchedStat(delta.onCpuNanos(), waitDelta, delta.timeslices());
    }

    synchronized void charge(final StepMeter neighbour, final long waitNanos) {
        charged.merge(new Neighbour(neighbour.label, neighbour.owner, 0), waitNanos, Long::sum);
    }

    synchronized void chargeOther(final long waitNanos) {
        otherWait += waitNanos;
    }

    /** Ends the measurement (the book took the last sample); removes the accounting group. Idempotent. */
    synchronized StepMeasure finish() {
        if (result != null) {
            return result;
        }
        long wall = System.nanoTime() - startNanos;
        OptionalLong groupCpu = OptionalLong.empty();
        OptionalLong pressure = OptionalLong.empty();
        if (group.isPresent()) {
            AccountingGroup g = group.get();
            try {
                groupCpu = OptionalLong.of(g.cpuNanos());
                pressure = g.pressureSomeMicros();
                List<Long> left = g.processes();
                if (!left.isEmpty()) {
                    notes.add(left.size() + " process(es) of the step still ran after it ended (daemonised or left"
                            + " behind): counted up to its end, then returned to the launcher's group");
                }
            } catch (RuntimeException e) {
                notes.add("could not read the accounting group at the end (" + e.getMessage() + "): CPU is what the"
                        + " samples saw");
            }
            dissolveQuietly();
        }
        if (rootPid < 0) {
            notes.add("the step never started: nothing measured");
        }
        if (tasks != null) {
            try {
                groupCpu = tasks.exactCpuNanos();
                notes.addAll(tasks.notes());
            } catch (RuntimeException e) {
                notes.add("could not read the container's group at the end (" + e.getMessage() + ")");
            }
        }
        SchedStat seen = sampler.total();
        if (schedstat && samples > 0) {
            source += String.format(java.util.Locale.ROOT, " %d times (every %d ms on average)", samples,
                    wall / samples / 1_000_000);
        }
        long wait = -1;
        long throttled = -1;
        // the samples charged the wait to neighbours as it came; a total found smaller at the end scales them down
        double keep = 1;
        if (throttledReader != null) {
            readThrottled();
            throttled = throttledSeen;
            // a hold read late during the run (so left in the samples' wait) is taken out now that both counters are final
            long settled = Math.min(waitApart, Math.max(0, rawWait - holdSinceReader()));
            keep = waitApart == 0 ? 1 : (double) settled / waitApart;
            waitApart = settled;
        }
        if (schedstat) {
            wait = throttledReader == null ? seen.runQueueWaitNanos() : waitApart;
            if (sampler.waitCut() > 0) {
                notes.add(String.format(java.util.Locale.ROOT, "schedstat counted more wait than a task had lived"
                        + " (up to %.3f s over): its wait was cut to its lifetime", sampler.waitCut() / 1e9));
            }
        }
        List<Neighbour> neighbours = new ArrayList<>();
        for (Map.Entry<Neighbour, Long> e : charged.entrySet()) {
            neighbours.add(new Neighbour(e.getKey().label(), e.getKey().owner(), Math.round(e.getValue() * keep)));
        }
        neighbours.sort((a, b) -> Long.compare(b.waitNanos(), a.waitNanos()));
        otherWait = Math.round(otherWait * keep);
        result = new StepMeasure(label, source, wall, groupCpu, seen.onCpuNanos(), wait, pressure, neighbours, otherWait, notes,
                throttled);
        return result;
    }

    private void dissolveQuietly() {
        try {
            group.ifPresent(AccountingGroup::dissolve);
        } catch (RuntimeException e) {
            notes.add(e.getMessage());
        }
        group = Optional.empty();
    }

    /** The root process's tasks and, through /proc/.../children ({@link ProcFs#descendants}), its descendants'. */
    private List<Long> treeTasks() {
        List<Long> pids = new ArrayList<>();
        pids.add(rootPid);
        pids.addAll(proc.descendants(rootPid).orElse(List.of()));
        List<Long> tids = new ArrayList<>();
        for (long pid : pids) {
            tids.addAll(proc.threads(pid));
        }
        return tids;
    }
}
