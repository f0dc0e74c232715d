package dev.schedpolicy.engine.launch;

/**
 * The launch was aborted (the build was stopped, its block ended) while its release waited for the command to reach
 * the policy shim: the command never runs, a shim that arrives later exits 125.
 */
public class LaunchAbortedException extends PolicyApplyException {
    private static final long serialVersionUID = 1L;

    public LaunchAbortedException(final String reason) {
        super("the launch was aborted while it waited for its command to reach the policy shim: " + reason
                + "; the command was not started");
    }
}
