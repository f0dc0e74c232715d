package dev.schedpolicy.engine.guard;

/** One way to lower a competitor, e.g. into an idle cgroup or to SCHED_IDLE. */
public interface Lowering {
    /** In words, for the report: "moved into the cpu.idle group /schedpolicy-...". */
    String means();

    /**
     * Lowers the process, recording what it takes to put it back.
     *
     * @throws RuntimeException when the kernel refuses (the process exited, no permission); nothing is then changed
     */
    Lowered lower(Competitor competitor);

    /** Ends this way of lowering (removes what it made); every {@link Lowered} is restored before. */
    void close();

    /** What was lowered, and how to undo exactly that. */
    interface Lowered {
        Competitor competitor();

        /** Puts it back as recorded; a process that has exited meanwhile is not an error. */
        void restore();
    }
}
