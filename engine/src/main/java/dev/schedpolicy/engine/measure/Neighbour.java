package dev.schedpolicy.engine.measure;

import java.util.Objects;

/**
 * Another launch of the same agent that ran while the step waited, and the part of the step's wait charged to it
 * (in proportion to the CPU it used in the same sampling intervals: an apportionment, not a kernel figure).
 *
 * @param label what the agent knows of the launch (build, step, policy)
 * @param owner whose launch it is, as the caller named it when it opened the launch's meter (in Jenkins the job's full
 *              name, which a reader's permission is checked against); "" for none
 * @param waitNanos the step's run-queue wait charged to it
 */
public record Neighbour(String label, String owner, long waitNanos) {
    public Neighbour {
        Objects.requireNonNull(label, "label");
        Objects.requireNonNull(owner, "owner");
    }

    /** A neighbour of no owner. */
    public Neighbour(final String label, final long waitNanos) {
        this(label, "", waitNanos);
    }
}
