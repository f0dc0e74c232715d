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

    /**
     * The process is held lowered by another guard of this JVM right now (several guarded launches run at once): it is
     * left to that guard, and tried again at a later period, never noted as refused. Lowering it here would take the
     * other guard's group for its home, which is gone once that guard ends.
     */
    final class HeldElsewhere extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        public HeldElsewhere(final String message) {
            super(message);
        }
    }

    /** What was lowered, and how to undo exactly that. */
    interface Lowered {
        Competitor competitor();

        /** Puts it back as recorded; a process that has exited meanwhile is not an error. */
        void restore();

        /** The cpu cgroup it came from and goes back to, when lowering moved it out of one; empty otherwise. */
        default java.util.Optional<String> homeGroup() {
            return java.util.Optional.empty();
        }
    }
}
