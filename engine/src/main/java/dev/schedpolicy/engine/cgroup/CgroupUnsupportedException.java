package dev.schedpolicy.engine.cgroup;

import java.nio.file.Path;

/**
 * The kernel or cgroup version here lacks what was asked for (cpu.idle on kernels before 5.15 for v1/6.0,
 * thread placement on cgroup v2). Separate from {@link CgroupException} so that callers running under an
 * "on unsupported: warn" policy can tell it apart from a real failure.
 */
public class CgroupUnsupportedException extends CgroupException {
    private static final long serialVersionUID = 1L;

    public CgroupUnsupportedException(final String message) {
        super(message);
    }

    public CgroupUnsupportedException(final String message, final Path file) {
        super(message, file, null);
    }
}
