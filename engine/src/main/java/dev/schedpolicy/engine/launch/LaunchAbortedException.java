package dev.schedpolicy.engine.launch;

/**
 * The launch was aborted (the build was stopped, its block ended) while its release waited: for the command to reach
 * the policy shim (the command never runs, a shim that arrives later exits 125), or for the container a
 * {@code docker run} makes (none is made: the client cannot write its --cidfile any more).
 */
public class LaunchAbortedException extends PolicyApplyException {
    private static final long serialVersionUID = 1L;

    /** A parked launch: the command did not reach the shim. */
    public LaunchAbortedException(final String reason) {
        this("its command to reach the policy shim", reason, "the command was not started");
    }

    /**
     * @param waitedFor what the release waited for
     * @param outcome   what that means for the command
     */
    public LaunchAbortedException(final String waitedFor, final String reason, final String outcome) {
        super("the launch was aborted while it waited for " + waitedFor + ": " + reason + "; " + outcome);
    }
}
