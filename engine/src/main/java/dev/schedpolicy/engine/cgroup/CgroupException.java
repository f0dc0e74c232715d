package dev.schedpolicy.engine.cgroup;

import java.nio.file.Path;
import java.util.Optional;

/**
 * A cgroup operation that failed. The message always names the operation, the file and the reason in
 * words (for example "permission denied (EACCES)"), because users fix these by hand: delegate a cgroup,
 * remount, or pick another parent.
 */
public class CgroupException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient Path file;

    public CgroupException(final String message) {
        this(message, null, null);
    }

    public CgroupException(final String message, final Path file, final Throwable cause) {
        super(message, cause);
        this.file = file;
    }

    /** The cgroupfs file or directory involved, when there is one. */
    public Optional<Path> file() {
        return Optional.ofNullable(file);
    }
}
