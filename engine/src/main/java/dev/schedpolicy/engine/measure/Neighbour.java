package dev.schedpolicy.engine.measure;

/**
 * Another launch of the same agent that ran while the step waited, and the part of the step's wait charged to it
 * (in proportion to the CPU it used in the same sampling intervals: an apportionment, not a kernel figure).
 *
 * @param label what the agent knows of the launch (build, step, policy)
 * @param waitNanos the step's run-queue wait charged to it
 */
public record Neighbour(String label, long waitNanos) {
}
