package dev.schedpolicy.engine.bench;

/** Why a run stopped early without a result. */
final class RunAborted extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** What ended it. */
    enum Kind {
        /** {@link BenchOptions.Cancellation} was used: the whole benchmark stops. */
        CANCELLED,
        /** The engine could not apply the row's policy on this machine: the row is skipped. */
        POLICY_UNAVAILABLE,
        /** This machine cannot place processes the way the run's topology needs: the topology is skipped. */
        TOPOLOGY_UNAVAILABLE,
        /**
         * The row's policy cannot act in the run's topology (per-task parts on a container's processes): the row is
         * skipped in that topology only.
         */
        POLICY_UNAVAILABLE_IN_TOPOLOGY
    }

    private final Kind kind;

    RunAborted(final Kind kind, final String message) {
        super(message);
        this.kind = kind;
    }

    Kind kind() {
        return kind;
    }
}
