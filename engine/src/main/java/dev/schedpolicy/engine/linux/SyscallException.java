package dev.schedpolicy.engine.linux;

/** A failed system call, naming the call, its target and errno in words. */
public class SyscallException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final String call;
    private final long target;
    private final int errno;

    public SyscallException(final String call, final long target, final int errno) {
        super(call + " on " + (target == 0 ? "the calling thread" : "task " + target) + " failed: "
                + Errno.describe(errno));
        this.call = call;
        this.target = target;
        this.errno = errno;
    }

    public String call() {
        return call;
    }

    public long target() {
        return target;
    }

    public int errno() {
        return errno;
    }

    public boolean isPermissionProblem() {
        return errno == Errno.EPERM.number() || errno == Errno.EACCES.number();
    }
}
