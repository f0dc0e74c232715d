package dev.schedpolicy.engine.jna;

import java.util.Locale;

/** Per-architecture syscall numbers (arch/x86/entry/syscalls/syscall_64.tbl, include/uapi/asm-generic/unistd.h). */
record SyscallNumbers(long schedSetattr, long schedGetattr, long ioprioSet, long ioprioGet, long gettid) {
    static final SyscallNumbers X86_64 = new SyscallNumbers(314, 315, 251, 252, 186);
    static final SyscallNumbers AARCH64 = new SyscallNumbers(274, 275, 30, 31, 178);

    static SyscallNumbers forArch(final String osArch) {
        return switch (osArch.toLowerCase(Locale.ROOT)) {
            case "amd64", "x86_64" -> X86_64;
            case "aarch64", "arm64" -> AARCH64;
            default -> throw new UnsupportedOperationException("Sched Policy supports x86_64 and aarch64 Linux; this JVM reports os.arch="
                    + osArch);
        };
    }
}
