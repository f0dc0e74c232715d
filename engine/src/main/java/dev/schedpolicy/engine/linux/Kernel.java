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

    /**
     * pthread_sigmask(SIG_SETMASK) for the calling thread; bit n-1 stands for signal n, as in /proc's SigBlk. A
     * child inherits its spawning thread's mask, and the JVM blocks SIGQUIT in every Java thread.
     */
    void setSignalMask(long mask);

    /**
     * Catches {@code signal} with a handler that does nothing. Unlike SIG_IGN, which children inherit, a caught
     * signal is reset to its default by exec; and it takes the signal from the JVM (SIGQUIT: a thread dump on stdout).
     */
    void discardSignal(int signal);
}
