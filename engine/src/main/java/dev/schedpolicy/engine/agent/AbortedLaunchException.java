package dev.schedpolicy.engine.agent;

/**
 * A prepared launch was aborted (its build was stopped) while its release waited: for the command to reach the policy
 * shim, or for the container its {@code docker run} makes. The command never runs. The embedder shows the message as
 * the one line the user sees.
 */
public final class AbortedLaunchException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    AbortedLaunchException(final String message, final Throwable cause) {
        super(message, cause);
    }

    /** A {@code docker run} aborted before its container existed: none is made (the client cannot write its --cidfile). */
    static AbortedLaunchException beforeContainer(final String reason) {
        return new AbortedLaunchException("the launch was aborted while it waited for its container: " + reason
                + "; no container was created and the body did not run", null);
    }
}
