package dev.schedpolicy.engine.launch;

/** A policy that could not be applied or did not read back as asked; the message says which part and why. */
public class PolicyApplyException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public PolicyApplyException(final String message) {
        super(message);
    }

    public PolicyApplyException(final String message, final Throwable cause) {
        super(message, cause);
    }
}
