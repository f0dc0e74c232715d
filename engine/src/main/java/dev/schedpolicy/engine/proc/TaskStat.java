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
 */
public record TaskStat(long pid, String comm, char state, int ppid, long utimeTicks, long stimeTicks, int nice, int numThreads,
        int policy) {
    /** USER_HZ is 100 on every architecture Linux exports to user space, independent of CONFIG_HZ. */
    public static final long TICKS_PER_SECOND = 100;

    public long cpuTimeMillis() {
        return (utimeTicks + stimeTicks) * 1000 / TICKS_PER_SECOND;
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
                Integer.parseInt(f[20 - 3]), Integer.parseInt(f[41 - 3]));
    }
}
