package dev.schedpolicy.cli;

/** A usage error found after parsing (e.g. an option only root may use); exits 2 with this message. */
final class UsageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UsageException(final String message) {
        super(message);
    }
}
