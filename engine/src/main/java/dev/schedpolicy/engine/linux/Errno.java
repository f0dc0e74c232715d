package dev.schedpolicy.engine.linux;

/** errno values users meet with these calls, in words; the distinction between EPERM and EACCES matters to them. */
public enum Errno {
    EPERM(1, "operation not permitted (needs CAP_SYS_NICE or a higher RLIMIT_NICE/RLIMIT_RTPRIO)"),
    ENOENT(2, "no such file or directory"),
    ESRCH(3, "no such process (it has already exited)"),
    EINTR(4, "interrupted"),
    E2BIG(7, "structure size not supported by this kernel"),
    EBADF(9, "bad file descriptor"),
    EAGAIN(11, "resource temporarily unavailable"),
    ENOMEM(12, "out of memory"),
    EACCES(13, "permission denied (a lower nice value needs CAP_SYS_NICE or RLIMIT_NICE)"),
    EFAULT(14, "bad address"),
    EBUSY(16, "device or resource busy"),
    EEXIST(17, "file exists"),
    EINVAL(22, "invalid argument (the kernel does not accept this value or policy)"),
    ENOSPC(28, "no space left"),
    EROFS(30, "read-only file system"),
    ENOSYS(38, "function not implemented by this kernel"),
    EOPNOTSUPP(95, "operation not supported");

    private final int number;
    private final String words;

    Errno(final int number, final String words) {
        this.number = number;
        this.words = words;
    }

    public int number() {
        return number;
    }

    public String words() {
        return words;
    }

    /** "EPERM (operation not permitted ...)" or "errno 77" for ones not listed. */
    public static String describe(final int errno) {
        for (Errno e : values()) {
            if (e.number == errno) {
                return e.name() + " (" + e.words + ")";
            }
        }
        return "errno " + errno;
    }

    public static Errno of(final int errno) {
        for (Errno e : values()) {
            if (e.number == errno) {
                return e;
            }
        }
        return null;
    }
}
