package dev.schedpolicy.engine.launch;

import java.io.Serializable;
import java.util.List;

/**
 * What the kernel reports for a launched task after the policy was applied: read back, not assumed.
 *
 * @param pid        process the values were read from
 * @param readFrom   whose values these are: "child" (the launched process, parked or still running)
 *                   or "launching thread" (the child had already exited; it inherited these at fork)
 * @param schedClass kernel policy name (normal, batch, idle, ...)
 * @param nice       nice value
 * @param io         I/O priority as ioprio_get reports it (idle, be:N, none)
 * @param cpuCgroup  the task's cgroup for the cpu controller
 * @param cpus       Cpus_allowed_list
 * @param mismatches requested values the kernel did not report, in words; empty when all match
 */
public record AppliedPolicy(long pid, String readFrom, String schedClass, int nice, String io, String cpuCgroup,
        String cpus, List<String> mismatches) implements Serializable {
    public AppliedPolicy {
        mismatches = List.copyOf(mismatches);
    }

    public boolean matches() {
        return mismatches.isEmpty();
    }

    /** One line for logs and --verify: "pid 123: batch nice 19 io idle cgroup /x cpus 0-1". */
    public String describe() {
        return "pid " + pid + " (" + readFrom + "): class " + schedClass + ", nice " + nice + ", io " + io
                + ", cpu cgroup " + cpuCgroup + ", cpus " + cpus;
    }
}
