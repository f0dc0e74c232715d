package dev.schedpolicy.engine.launch;

import dev.schedpolicy.engine.linux.Errno;
import dev.schedpolicy.engine.linux.Kernel;
import dev.schedpolicy.engine.linux.SchedAttr;
import dev.schedpolicy.engine.linux.SyscallException;
import dev.schedpolicy.engine.policy.OnUnsupported;
import dev.schedpolicy.engine.policy.Policy;
import dev.schedpolicy.engine.policy.SchedClass;

import java.util.ArrayList;
import java.util.List;

/** Applies the per-task parts of a policy (class, nice, I/O priority, affinity) to one thread. */
final class TaskPolicyApplier {
    private final Kernel kernel;

    TaskPolicyApplier(final Kernel kernel) {
        this.kernel = kernel;
    }

    /**
     * Applies {@code policy} to thread {@code tid} (0 = the calling thread).
     *
     * @return warnings for parts skipped under {@link OnUnsupported#WARN}; empty when everything was applied
     * @throws PolicyApplyException when a part fails under {@link OnUnsupported#FAIL}
     */
    List<String> apply(final int tid, final Policy policy) {
        return apply(tid, policy, false);
    }

    /** @param inNewGroup whether the task was just placed in the launch's own cgroup, which has no realtime runtime */
    List<String> apply(final int tid, final Policy policy, final boolean inNewGroup) {
        List<String> warnings = new ArrayList<>();
        policy.cpus().ifPresent(cpus -> attempt(policy, warnings, "CPU affinity " + cpus,
                () -> kernel.setAffinity(tid, cpus.toBitSet())));
        policy.schedClass().ifPresent(c -> attempt(policy, warnings, "scheduling class " + c.label(),
                () -> setClass(tid, c, policy), c.isRealtime() && inNewGroup));
        // After sched_setattr, never before: sched_setattr rewrites nice (systemd bug 34006).
        policy.nice().ifPresent(n -> attempt(policy, warnings, "nice " + n, () -> kernel.setNice(tid, n)));
        policy.io().ifPresent(io -> attempt(policy, warnings, "I/O priority " + io,
                () -> kernel.setIoPriority(tid, io.kernelValue())));
        return warnings;
    }

    private void setClass(final int tid, final SchedClass c, final Policy policy) {
        SchedAttr current = kernel.getSchedAttr(tid);
        int nice = policy.nice().orElse(current.nice());
        int priority = c.isRealtime() ? policy.rtPriority().orElse(1) : 0;
        kernel.setSchedAttr(tid, new SchedAttr(c.kernelValue(), 0, nice, priority, c.isRealtime() ? 0 : current.runtime()));
    }

    private static void attempt(final Policy policy, final List<String> warnings, final String what, final Runnable call) {
        attempt(policy, warnings, what, call, false);
    }

    private static void attempt(final Policy policy, final List<String> warnings, final String what, final Runnable call,
            final boolean realtimeInNewGroup) {
        try {
            call.run();
        } catch (SyscallException e) {
            String message = "cannot apply " + what + ": " + (realtimeInNewGroup
                    ? e.call() + " failed with " + (Errno.of(e.errno()) == null ? "errno " + e.errno() : Errno.of(e.errno()).name()) : e.getMessage()) + advice(e, realtimeInNewGroup);
            if (policy.onUnsupported() == OnUnsupported.FAIL) {
                throw new PolicyApplyException(message, e);
            }
            warnings.add(message);
        }
    }

    private static String advice(final SyscallException e, final boolean realtimeInNewGroup) {
        if (realtimeInNewGroup) {
            return "; a realtime class cannot run in the launch's new cpu cgroup: its cpu.rt_runtime_us is 0 (realtime group"
                    + " scheduling), so drop the cgroup controls (quota, weight, cpu-idle) or the realtime class";
        }
        return e.isPermissionProblem()
                ? "; the target belongs to another user, or the change raises priority (realtime, negative nice or"
                        + " leaving idle need CAP_SYS_NICE)"
                : "";
    }
}
