package dev.schedpolicy.engine.policy;

/** A policy that is malformed or not allowed; the message always says what is allowed instead. */
public class InvalidPolicyException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public InvalidPolicyException(final String message) {
        super(message);
    }
}
