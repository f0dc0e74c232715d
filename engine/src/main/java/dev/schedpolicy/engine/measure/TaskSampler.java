package dev.schedpolicy.engine.measure;

import dev.schedpolicy.engine.proc.ProcFs;
import dev.schedpolicy.engine.proc.SchedStat;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * Sums /proc/TID/schedstat over the tasks of a step, sample by sample. A task's counters are cumulative, so its last
 * sample stands for it once it is gone: only what it did after that sample is lost (and all of a task that was born
 * and died between two samples). Memory is one entry per live task: a task that left is folded into the retired sum.
 * <p>
 * Tasks known to be born after a moment (a step's, whose meter was made before its first process) cannot have been
 * runnable longer than they lived: a reading that says so (seen once in CI, on 6.18, for a task under a CPU quota whose
 * hold schedstat counts as wait) keeps its CPU and has its wait cut to what the lifetime leaves, and is counted in
 * {@link #waitCut()}, so that a record says its figures were bounded rather than showing a wait over the wall time.
 */
public final class TaskSampler {
    private final ProcFs proc;
    private final LongSupplier clock;
    /** {@link System#nanoTime()} before the first task was born; {@code Long.MIN_VALUE}: unknown (tasks older than us). */
    private final long bornAfter;
    private final Map<Long, SchedStat> live = new HashMap<>();
    private SchedStat retired = SchedStat.ZERO;
    private long tasksSeen;
    private long waitCut;
    private final byte[] buffer = new byte[128];

    public TaskSampler(final ProcFs proc) {
        this(proc, System::nanoTime, Long.MIN_VALUE);
    }

    /** A sampler for tasks all born after {@code bornAfter} (a {@code clock} reading). */
    public TaskSampler(final ProcFs proc, final LongSupplier clock, final long bornAfter) {
        this.proc = proc;
        this.clock = clock;
        this.bornAfter = bornAfter;
    }

    /** The most wait taken off one task whose reading exceeded its lifetime so far, in ns (0: none did). */
    public long waitCut() {
        return waitCut;
    }

    /** Reads the given tasks (the step's tasks now) and returns the step's total so far. */
    public SchedStat sample(final Collection<Long> tids) {
        long lifetime = bornAfter == Long.MIN_VALUE ? Long.MAX_VALUE : clock.getAsLong() - bornAfter;
        Set<Long> now = new HashSet<>(tids);
        for (Iterator<Map.Entry<Long, SchedStat>> it = live.entrySet().iterator(); it.hasNext();) {
            Map.Entry<Long, SchedStat> e = it.next();
            if (!now.contains(e.getKey())) {
                retired = retired.plus(e.getValue());
                it.remove();
            }
        }
        for (long tid : now) {
            Optional<SchedStat> read;
            try {
                read = proc.taskSchedStat(tid, buffer);
            } catch (RuntimeException e) {
                read = Optional.empty();
            }
            if (read.isEmpty()) {
                continue;
            }
            SchedStat prev = live.put(tid, bounded(read.get(), lifetime));
            if (prev == null) {
                tasksSeen++;
            } else if (read.get().onCpuNanos() < prev.onCpuNanos()) {
                // the ID was reused by a new task since the last sample: the old one ended with prev
                retired = retired.plus(prev);
                tasksSeen++;
            }
        }
        return total();
    }

    /** {@code s} with its wait cut so that wait and CPU together fit in {@code lifetime}; the cut kept in {@link #waitCut}. */
    private SchedStat bounded(final SchedStat s, final long lifetime) {
        long room = Math.max(0, lifetime - s.onCpuNanos());
        if (s.runQueueWaitNanos() <= room) {
            return s;
        }
        waitCut = Math.max(waitCut, s.runQueueWaitNanos() - room);
        return new SchedStat(s.onCpuNanos(), room, s.timeslices());
    }

    SchedStat total() {
        SchedStat sum = retired;
        for (SchedStat s : live.values()) {
            sum = sum.plus(s);
        }
        return sum;
    }

    long tasksSeen() {
        return tasksSeen;
    }

    int liveTasks() {
        return live.size();
    }
}
