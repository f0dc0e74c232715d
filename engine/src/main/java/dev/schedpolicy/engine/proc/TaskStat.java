package dev.schedpolicy.engine.proc;

/**
 * The fields of /proc/PID/stat (or /proc/PID/task/TID/stat) that this engine needs.
 *
 * @param pid         the task ID (field 1)
 * @param comm        the command name between the parentheses
 * @param state       one-letter state (R, S, D, Z, T, ...)
 * @param ppid        parent PID
 * @param utimeTicks  user time in clock ticks (USER_HZ)
 * @param stimeTicks  system time in clock ticks
 * @param nice        nice value (field 19)
 * @param numThreads  thread count (field 20)
 * @param policy      kernel scheduling policy number (field 41)
 * @param flags       the kernel's per-task PF_* flags (field 9)
 * @param reapedChildrenTicks cutime + cstime (fields 16, 17): CPU of children the task has waited for
 */
public record TaskStat(long pid, String comm, char state, int ppid, long utimeTicks, long stimeTicks, int nice, int numThreads,
        int policy, long flags, long reapedChildrenTicks) {
    /** USER_HZ is 100 on every architecture Linux exports to user space, independent of CONFIG_HZ. */
    public static final long TICKS_PER_SECOND = 100;
    /** PF_EXITING (include/linux/sched.h): set at the start of exit, long before the task becomes a zombie. */
    static final long PF_EXITING = 0x4;

    /**
     * Whether the task is exiting or already a zombie. Such a task's other /proc files no longer tell the truth:
     * on cgroup v1, /proc/PID/cgroup shows an exiting task in the root group "/".
     */
    public boolean isExiting() {
        return (flags & PF_EXITING) != 0 || state == 'Z' || state == 'X' || state == 'x';
    }

    public long cpuTimeMillis() {
        return (utimeTicks + stimeTicks) * 1000 / TICKS_PER_SECOND;
    }

    /** Own CPU time plus that of reaped children, in ns. */
    public long cpuWithReapedChildrenNanos() {
        return (utimeTicks + stimeTicks + reapedChildrenTicks) * (1_000_000_000L / TICKS_PER_SECOND);
    }

    /** Parses the line, splitting at the LAST ')' because comm may itself contain spaces and parentheses. */
    public static TaskStat parse(final String line) {
        int open = line.indexOf('(');
        int close = line.lastIndexOf(')');
        if (open < 0 || close < open) {
            throw new IllegalArgumentException("not a /proc stat line: " + line);
        }
        String[] f = line.substring(close + 2).trim().split(" ");
        // f[0] is field 3 (state); field N is f[N - 3]
        return new TaskStat(Long.parseLong(line.substring(0, open).trim()), line.substring(open + 1, close), f[0].charAt(0), Integer.parseInt(f[1]),
                Long.parseLong(f[14 - 3]), Long.parseLong(f[15 - 3]), Integer.parseInt(f[19 - 3]),
                Integer.parseInt(f[20 - 3]), Integer.parseInt(f[41 - 3]), Long.parseLong(f[9 - 3]),
                Long.parseLong(f[16 - 3]) + Long.parseLong(f[17 - 3]));
    }
}
