package dev.schedpolicy.engine.launch;

import dev.schedpolicy.engine.linux.Kernel;
import dev.schedpolicy.engine.linux.SyscallException;
import dev.schedpolicy.engine.policy.IoPriority;
import dev.schedpolicy.engine.policy.Policy;
import dev.schedpolicy.engine.policy.SchedClass;
import dev.schedpolicy.engine.proc.ProcFs;
import dev.schedpolicy.engine.proc.TaskStat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/** Reads back from /proc and ioprio_get what the kernel applied, and compares it with what was asked. */
public final class ReadBack {
    private final Kernel kernel;
    private final ProcFs proc;

    public ReadBack(final Kernel kernel, final ProcFs proc) {
        this.kernel = kernel;
        this.proc = proc;
    }

    /**
     * Reads task {@code tid} of process {@code pid} (tid empty: the process's main thread).
     *
     * @param expectedCgroup the cpu cgroup the task should be in, or null when no group was asked for
     * @return empty when the task no longer exists or is exiting (then its /proc files no longer tell the truth)
     */
    public Optional<AppliedPolicy> read(final long pid, final OptionalLong tid, final String readFrom, final Policy policy,
            final String expectedCgroup) {
        return read(pid, tid, readFrom, policy, expectedCgroup, false);
    }

    /**
     * As {@link #read(long, OptionalLong, String, Policy, String)}; with {@code atLeastAsLow}, values lower than
     * asked also match: a running command may lower itself further ({@code nice -n 5 ...}, {@code ionice -c3 ...},
     * {@code chrt -i 0 ...}, a narrower affinity, a child cgroup of ours), which is no failure of the policy.
     */
    public Optional<AppliedPolicy> read(final long pid, final OptionalLong tid, final String readFrom, final Policy policy,
            final String expectedCgroup, final boolean atLeastAsLow) {
        Optional<TaskStat> stat = tid.isPresent() ? proc.threadStat(pid, tid.getAsLong()) : proc.stat(pid);
        if (stat.isEmpty() || stat.get().isExiting()) {
            return Optional.empty();
        }
        String io;
        int rawIo = -1;
        try {
            rawIo = kernel.getIoPriority((int) tid.orElse(pid));
            io = IoPriority.fromKernel(rawIo).toString();
        } catch (SyscallException e) {
            if (e.errno() == 3) {
                return Optional.empty();
            }
            io = "unknown (" + e.getMessage() + ")";
        }
        List<String> cgroupLines = proc.cgroupLines(pid, tid);
        Optional<String> allowed = proc.cpusAllowedList(pid, tid);
        if (cgroupLines.isEmpty() || allowed.isEmpty() || exited(pid, tid)) {
            // the task exited between reads: report it gone rather than half-read (an exiting task reads as
            // cgroup "/" on v1, proc_cgroup_show, so its cgroup line would be wrong, not just missing)
            return Optional.empty();
        }
        String cgroup = cpuCgroup(cgroupLines);
        String cpus = allowed.get();
        TaskStat s = stat.get();
        String schedClass = SchedClass.kernelName(s.policy());

        List<String> mismatches = atLeastAsLow ? new Lowness(s, rawIo, cpus, cgroup).raisedAbove(policy, expectedCgroup)
                : exactMismatches(policy, s, io, cpus, cgroup, expectedCgroup);
        return Optional.of(new AppliedPolicy(pid, readFrom, schedClass, s.nice(), io, cgroup, cpus, mismatches));
    }

    private static List<String> exactMismatches(final Policy policy, final TaskStat s, final String io, final String cpus,
            final String cgroup, final String expectedCgroup) {
        String schedClass = SchedClass.kernelName(s.policy());
        List<String> mismatches = new ArrayList<>();
        policy.schedClass().filter(c -> c.kernelValue() != s.policy())
                .ifPresent(c -> mismatches.add("scheduling class is " + schedClass + ", not " + c.label()));
        if (policy.nice().isPresent() && policy.nice().getAsInt() != s.nice()) {
            mismatches.add("nice is " + s.nice() + ", not " + policy.nice().getAsInt());
        }
        policy.io().filter(p -> !p.toString().equals(io))
                .ifPresent(p -> mismatches.add("I/O priority is " + io + ", not " + p));
        policy.cpus().filter(c -> !c.toString().equals(cpus))
                .ifPresent(c -> mismatches.add("allowed CPUs are " + cpus + ", not " + c));
        if (expectedCgroup != null && !expectedCgroup.equals(cgroup)) {
            mismatches.add("cpu cgroup is " + cgroup + ", not " + expectedCgroup);
        }
        return mismatches;
    }

    /**
     * Whether the task is gone or exiting now. Exiting cannot be undone, so a task that is not exiting after the
     * reads was not exiting during them. PF_EXITING, not only the zombie state: do_exit leaves the cgroup
     * long before the task turns zombie.
     */
    private boolean exited(final long pid, final OptionalLong tid) {
        Optional<TaskStat> now = tid.isPresent() ? proc.threadStat(pid, tid.getAsLong()) : proc.stat(pid);
        return now.isEmpty() || now.get().isExiting();
    }

    /** The cpu controller's path: the v1 line listing "cpu", else the unified (v2) line. */
    public static String cpuCgroup(final List<String> lines) {
        String unified = "?";
        for (String line : lines) {
            String[] f = line.split(":", 3);
            if (f.length < 3) {
                continue;
            }
            if (Arrays.asList(f[1].split(",")).contains("cpu")) {
                return f[2];
            }
            if (f[0].equals("0") && f[1].isEmpty()) {
                unified = f[2];
            }
        }
        return unified;
    }
}
