package dev.schedpolicy.engine.probe;

import dev.schedpolicy.engine.policy.Policy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What this user can apply on this machine, found by trying.
 *
 * @param schemaVersion  version of this JSON shape
 * @param kernel         uname release
 * @param cpus           online CPUs
 * @param euid           effective user ID
 * @param capabilities   each policy part, tried on a scratch child
 * @param cgroupMode     v1, v2, hybrid or none
 * @param cpuController  where the cpu controller is mounted, or "none"
 * @param cgroupParent   where launch groups would go, or null when there is no such directory (the quota, weight and
 *                       cpu-idle capabilities say why)
 * @param cgroupParentUsable whether groups can be created there
 * @param ioSchedulers   block device to active I/O scheduler (ioprio is honoured by bfq and mq-deadline only)
 * @param autogroup      whether autogroup is on
 * @param scope          who per-task policies protect against
 */
public record ProbeReport(int schemaVersion, String kernel, int cpus, int euid, List<Capability> capabilities,
        String cgroupMode, String cpuController, String cgroupParent, boolean cgroupParentUsable,
        Map<String, String> ioSchedulers, boolean autogroup, TaskGroupScope scope) {
    public static final int SCHEMA_VERSION = 1;

    public Optional<Capability> capability(final String name) {
        return capabilities.stream().filter(c -> c.name().equals(name)).findFirst();
    }

    /** The parts of {@code policy} this machine cannot apply, each in words; empty when all can be. */
    public List<String> problemsFor(final Policy policy) {
        List<String> problems = new ArrayList<>();
        policy.schedClass().ifPresent(c -> require(problems, c.label(), "scheduling class " + c.label()));
        policy.nice().ifPresent(n -> require(problems, "nice", "nice " + n));
        policy.io().ifPresent(io -> require(problems, io.toString().equals("idle") ? "io-idle" : "io-be", "I/O priority " + io));
        policy.cpus().ifPresent(cpus -> {
            require(problems, "affinity", "CPU affinity " + cpus);
            if (cpus.highest() >= this.cpus) {
                problems.add("CPU list " + cpus + " names CPUs this machine does not have (it has 0-" + (this.cpus - 1) + ")");
            }
        });
        policy.cpuQuotaPercent().ifPresent(q -> require(problems, "quota", "CPU quota " + q + "%"));
        policy.cpuWeight().ifPresent(w -> require(problems, "weight", "CPU weight " + w));
        if (policy.cpuIdle()) {
            require(problems, "cpu-idle", "cgroup cpu-idle");
        }
        return problems;
    }

    /**
     * Parts of {@code policy} the kernel accepts here but that will not have the intended effect; worth a
     * warning, never a failure, because the same policy does work on the agent's next disk or kernel.
     */
    public List<String> advisoriesFor(final Policy policy) {
        List<String> advisories = new ArrayList<>();
        policy.io().ifPresent(io -> {
            if (ioHasNoEffect()) {
                advisories.add("I/O priority " + io + " is applied but has no effect here: ioprio is honoured by the bfq and"
                        + " mq-deadline I/O schedulers only, and the disks use " + ioSchedulers);
            }
        });
        perTaskAdvisory(policy).ifPresent(advisories::add);
        return advisories;
    }

    /**
     * Nice, SCHED_BATCH and SCHED_IDLE are weighed only within one task group, on every kernel; since 6.11 that
     * holds for SCHED_IDLE's wakeup preemption too (before, a SCHED_IDLE task gave way at once to a task waking in
     * any group, though its CPU share was still weighed in its own group only).
     */
    private Optional<String> perTaskAdvisory(final Policy policy) {
        List<String> parts = new ArrayList<>();
        policy.schedClass().filter(c -> !c.label().equals("normal")).ifPresent(c -> parts.add("scheduling class " + c.label()));
        policy.nice().ifPresent(n -> {
            if (n != 0) {
                parts.add("nice " + n);
            }
        });
        if (parts.isEmpty() || scope.otherProcesses() == 0) {
            return Optional.empty();
        }
        boolean idle = policy.schedClass().map(c -> c.label().equals("idle")).orElse(false);
        return Optional.of(String.join(" and ", parts) + " is applied but has no effect against the " + scope.otherProcesses()
                + " processes in other task groups than " + scope.taskGroup() + ": the kernel weighs it only against the "
                + scope.sameGroupProcesses() + " processes in that group"
                + (idle && !releaseAtLeast(kernel, 6, 11) ? " (before Linux 6.11, as here, a SCHED_IDLE task does give way at once"
                        + " to a task waking in any group, but its CPU share is still weighed in its own group only)" : "")
                + "; cpu-idle, weight or quota reach the other groups");
    }

    /**
     * What {@link #advisoriesFor} says, in one short clause for a build log or a terminal, where it is read on every
     * run by people who did not write the policy; empty when there is nothing the policy cannot reach here.
     */
    public Optional<String> reachBrief(final Policy policy) {
        List<String> parts = new ArrayList<>();
        List<String> perTask = perTaskParts(policy);
        if (!perTask.isEmpty() && scope.otherProcesses() > 0) {
            parts.add(String.join(" and ", perTask) + (perTask.size() == 1 ? " yields" : " yield") + " only to processes in " + (scope.taskGroup().startsWith("autogroup")
                    ? "its own session" : "its own cpu cgroup") + " (this agent's builds), not to the " + scope.otherProcesses()
                    + " in other task groups");
        }
        policy.io().ifPresent(io -> {
            if (ioHasNoEffect()) {
                parts.add("I/O priority " + io + " has no effect on these disks' I/O schedulers");
            }
        });
        return parts.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", parts));
    }

    private boolean ioHasNoEffect() {
        return !ioSchedulers.isEmpty() && ioSchedulers.values().stream().noneMatch(s -> s.equals("bfq") || s.equals("mq-deadline"));
    }

    private static List<String> perTaskParts(final Policy policy) {
        List<String> parts = new ArrayList<>();
        policy.schedClass().filter(c -> !c.label().equals("normal")).ifPresent(c -> parts.add(c.label()));
        policy.nice().ifPresent(n -> {
            if (n != 0) {
                parts.add("nice " + n);
            }
        });
        return parts;
    }

    /** Whether a uname release ("6.1.0-56-amd64") is at least MAJOR.MINOR; an unparsable one counts as new. */
    static boolean releaseAtLeast(final String release, final int major, final int minor) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("^(\\d+)\\.(\\d+)").matcher(release);
        if (!m.find()) {
            return true;
        }
        int ma = Integer.parseInt(m.group(1));
        return ma > major || ma == major && Integer.parseInt(m.group(2)) >= minor;
    }

    private void require(final List<String> problems, final String capability, final String what) {
        Optional<Capability> c = capability(capability);
        if (c.isPresent() && !c.get().usable()) {
            problems.add(what + " cannot be applied here: " + c.get().detail());
        }
    }
}
