package dev.schedpolicy.engine.jna;

import com.sun.jna.LastErrorException;
import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.NativeLong;
import dev.schedpolicy.engine.linux.Kernel;
import dev.schedpolicy.engine.linux.SchedAttr;
import dev.schedpolicy.engine.linux.SyscallException;

import java.util.BitSet;

/** {@link Kernel} through JNA and libc's syscall(2); glibc before 2.41 has no sched_setattr wrapper. */
public final class JnaKernel implements Kernel {
    /** SCHED_ATTR_SIZE_VER1: includes util_min/util_max, accepted by every kernel since 5.3. */
    private static final int SCHED_ATTR_SIZE = 56;
    private static final int PRIO_PROCESS = 0;
    private static final int IOPRIO_WHO_PROCESS = 1;
    /** Room for 8192 CPUs, the CpuList maximum. */
    private static final int AFFINITY_BYTES = 1024;

    private static final int SIG_SETMASK = 2;
    /** glibc's sigset_t. */
    private static final int SIGSET_BYTES = 128;
    /** glibc's struct sigaction (x86_64 and aarch64): handler, sa_mask, int sa_flags, restorer. */
    private static final int SA_FLAGS_OFFSET = 8 + SIGSET_BYTES;
    private static final int SIGACTION_BYTES = SA_FLAGS_OFFSET + 8 + 8;
    private static final int SA_RESTART = 0x10000000;

    private static volatile JnaKernel instance;

    private final LibC libc;
    private final SyscallNumbers numbers;

    private JnaKernel(final LibC libc, final SyscallNumbers numbers) {
        this.libc = libc;
        this.numbers = numbers;
    }

    /** The process-wide binding; loading libc once is what JNA recommends. */
    public static Kernel get() {
        JnaKernel k = instance;
        if (k == null) {
            synchronized (JnaKernel.class) {
                k = instance;
                if (k == null) {
                    try {
                        k = new JnaKernel(Native.load("c", LibC.class), SyscallNumbers.forArch(System.getProperty("os.arch")));
                    } catch (UnsatisfiedLinkError e) {
                        throw new UnsupportedOperationException("cannot load libc through JNA: " + e.getMessage(), e);
                    }
                    instance = k;
                }
            }
        }
        return k;
    }

    @Override
    public SchedAttr getSchedAttr(final int tid) {
        Memory attr = new Memory(SCHED_ATTR_SIZE);
        attr.clear();
        syscall("sched_getattr", tid, numbers.schedGetattr(), tid, attr, SCHED_ATTR_SIZE, 0);
        return new SchedAttr(attr.getInt(4), attr.getLong(8), attr.getInt(16), attr.getInt(20), attr.getLong(24));
    }

    @Override
    public void setSchedAttr(final int tid, final SchedAttr value) {
        Memory attr = new Memory(SCHED_ATTR_SIZE);
        attr.clear();
        attr.setInt(0, SCHED_ATTR_SIZE);
        attr.setInt(4, value.policy());
        attr.setLong(8, value.flags());
        attr.setInt(16, value.nice());
        attr.setInt(20, value.priority());
        attr.setLong(24, value.runtime());
        syscall("sched_setattr", tid, numbers.schedSetattr(), tid, attr, 0);
    }

    @Override
    public void setNice(final int tid, final int nice) {
        try {
            libc.setpriority(PRIO_PROCESS, tid, nice);
        } catch (LastErrorException e) {
            throw new SyscallException("setpriority(nice " + nice + ")", tid, e.getErrorCode());
        }
    }

    @Override
    public int getIoPriority(final int tid) {
        return (int) syscall("ioprio_get", tid, numbers.ioprioGet(), IOPRIO_WHO_PROCESS, tid);
    }

    @Override
    public void setIoPriority(final int tid, final int value) {
        syscall("ioprio_set", tid, numbers.ioprioSet(), IOPRIO_WHO_PROCESS, tid, value);
    }

    @Override
    public BitSet getAffinity(final int tid) {
        byte[] mask = new byte[AFFINITY_BYTES];
        try {
            libc.sched_getaffinity(tid, new NativeLong(mask.length), mask);
        } catch (LastErrorException e) {
            throw new SyscallException("sched_getaffinity", tid, e.getErrorCode());
        }
        return BitSet.valueOf(mask);
    }

    @Override
    public void setAffinity(final int tid, final BitSet cpus) {
        byte[] mask = new byte[AFFINITY_BYTES];
        byte[] bits = cpus.toByteArray();
        System.arraycopy(bits, 0, mask, 0, Math.min(bits.length, mask.length));
        try {
            libc.sched_setaffinity(tid, new NativeLong(mask.length), mask);
        } catch (LastErrorException e) {
            throw new SyscallException("sched_setaffinity(" + cpus + ")", tid, e.getErrorCode());
        }
    }

    @Override
    public int gettid() {
        return (int) syscall("gettid", 0, numbers.gettid());
    }

    @Override
    public boolean kill(final int pid, final int signal) {
        try {
            libc.kill(pid, signal);
            return true;
        } catch (LastErrorException e) {
            if (e.getErrorCode() == 3) {
                return false;
            }
            throw new SyscallException("kill(signal " + signal + ")", pid, e.getErrorCode());
        }
    }

    @Override
    public void mkfifo(final String path, final int mode) {
        try {
            libc.mkfifo(path, mode);
        } catch (LastErrorException e) {
            throw new SyscallException("mkfifo(" + path + ")", 0, e.getErrorCode());
        }
    }

    @Override
    public int geteuid() {
        return libc.geteuid();
    }

    @Override
    public void setSignalMask(final long mask) {
        Memory set = new Memory(SIGSET_BYTES);
        set.clear();
        set.setLong(0, mask);
        int error = libc.pthread_sigmask(SIG_SETMASK, set, null);
        if (error != 0) {
            throw new SyscallException("pthread_sigmask", 0, error);
        }
    }

    /**
     * The handler is libc's getpid: async-signal-safe, without effect, and it ignores the signal number it is
     * given. A Java callback cannot serve: it would run Java code inside a signal handler on whatever thread
     * the kernel picked.
     */
    @Override
    public void discardSignal(final int signal) {
        Memory act = new Memory(SIGACTION_BYTES);
        act.clear();
        act.setPointer(0, NativeLibrary.getInstance("c").getFunction("getpid"));
        act.setInt(SA_FLAGS_OFFSET, SA_RESTART);
        try {
            libc.sigaction(signal, act, null);
        } catch (LastErrorException e) {
            throw new SyscallException("sigaction(signal " + signal + ")", 0, e.getErrorCode());
        }
    }

    /** Every argument goes as a native long or pointer: syscall(2) reads full registers, so an int vararg would leave garbage. */
    private long syscall(final String name, final long target, final long number, final Object... args) {
        Object[] wide = new Object[args.length];
        for (int i = 0; i < args.length; i++) {
            wide[i] = args[i] instanceof Number n ? new NativeLong(n.longValue()) : args[i];
        }
        try {
            return libc.syscall(new NativeLong(number), wide).longValue();
        } catch (LastErrorException e) {
            throw new SyscallException(name, target, e.getErrorCode());
        }
    }
}
