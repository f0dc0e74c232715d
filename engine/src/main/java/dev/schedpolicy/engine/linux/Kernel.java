package dev.schedpolicy.engine.linux;

import java.util.BitSet;

/**
 * The scheduling system calls in Java types. A {@code tid} of 0 means the calling thread; any other
 * value names one thread (for a single-threaded process, its PID). Every failure is a {@link SyscallException}.
 */
public interface Kernel {
    SchedAttr getSchedAttr(int tid);

    void setSchedAttr(int tid, SchedAttr attr);

    /** setpriority(PRIO_PROCESS, tid, nice): on Linux this changes one thread, not the whole process. */
    void setNice(int tid, int nice);

    /** The raw ioprio value: (class << 13) | level. */
    int getIoPriority(int tid);

    void setIoPriority(int tid, int value);

    BitSet getAffinity(int tid);

    void setAffinity(int tid, BitSet cpus);

    int gettid();

    /** kill(2); returns false when the process no longer exists. */
    boolean kill(int pid, int signal);

    /** mkfifo(3) with the given mode. */
    void mkfifo(String path, int mode);

    int geteuid();
}
