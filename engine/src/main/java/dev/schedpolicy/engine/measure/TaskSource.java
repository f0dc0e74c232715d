package dev.schedpolicy.engine.measure;

import java.util.List;
import java.util.OptionalLong;

/**
 * Where a step's tasks are found when they are neither in an accounting group of ours nor in a process tree below a
 * process we started: the processes a container runtime starts for an exec, found in the container's own cgroup. The
 * meter samples their /proc/TID/schedstat as it does any step's.
 */
public interface TaskSource {
    /** The thread IDs of the step now (each sample asks); empty when none runs (yet, or any more). */
    List<Long> threads();

    /** Whether the step is over: it had tasks and has none left, or it never showed one within the source's bound. */
    boolean ended();

    /** CPU of every task of the step, exited ones included, where a kernel counter holds exactly that; else empty. */
    OptionalLong exactCpuNanos();

    /** The kernel sources, in words, for the record's "source". */
    String words();

    /** What the source could not see, in words, read once when the step ends. */
    List<String> notes();
}
