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

/**
 * Sums /proc/TID/schedstat over the tasks of a step, sample by sample. A task's counters are cumulative, so its last
 * sample stands for it once it is gone: only what it did after that sample is lost (and all of a task that was born
 * and died between two samples). Memory is one entry per live task: a task that left is folded into the retired sum.
 */
public final class TaskSampler {
    private final ProcFs proc;
    private final Map<Long, SchedStat> live = new HashMap<>();
    private SchedStat retired = SchedStat.ZERO;
    private long tasksSeen;
    private final byte[] buffer = new byte[128];

    public TaskSampler(final ProcFs proc) {
        this.proc = proc;
    }

    /** Reads the given tasks (the step's tasks now) and returns the step's total so far. */
    public SchedStat sample(final Collection<Long> tids) {
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
            SchedStat prev = live.put(tid, read.get());
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
