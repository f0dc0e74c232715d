package dev.schedpolicy.engine.container;

import dev.schedpolicy.engine.policy.Policy;
import dev.schedpolicy.engine.policy.SchedClass;

import java.util.ArrayList;
import java.util.List;

/**
 * The parts of a policy that act per task (scheduling class, nice, I/O class) and so cannot reach a container's
 * processes: the runtime's daemon starts them, not us, and they inherit nothing from the client we launch. Each
 * comes with its cgroup equivalent, the control that does reach them through the container's group.
 */
public final class PerTaskParts {
    /** The kernel's sched_prio_to_weight for nice 0..19 (kernel/sched/core.c); nice 0 is 1024. */
    private static final int[] NICE_WEIGHT = {1024, 820, 655, 526, 423, 335, 272, 215, 172, 137, 110, 87, 70, 56, 45, 36, 29, 23, 18, 15};

    private PerTaskParts() {
    }

    /** One line per per-task part: what it is and what to use for container steps instead; empty when there is none. */
    public static List<String> of(final Policy policy) {
        List<String> parts = new ArrayList<>();
        policy.schedClass().filter(c -> c != SchedClass.NORMAL).ifPresent(c -> parts.add("class " + c.label()
                + " (use cpuIdle for container steps: cpu.idle on the container's group" + (c == SchedClass.IDLE ? ")" : ", or cpuWeight)")));
        policy.nice().ifPresent(n -> parts.add("nice " + n + " (use cpuWeight: " + weightForNice(n)
                + " for container steps, the cgroup weight with the same share as nice " + n + " against nice 0)"));
        policy.io().ifPresent(io -> parts.add("io " + io + " (no cgroup equivalent is applied; docker's --blkio-weight is the"
                + " container's I/O weight under bfq)"));
        return parts;
    }

    /**
     * The cgroup controls that stand in for the per-task parts on a container: cpu-idle for class idle (a group under an
     * idle parent weighs as little against the machine as SCHED_IDLE does against its task group), the weight with the
     * same share for a nice (batch runs at its nice's weight). Parts the policy already covers itself are left out
     * (its own cpu-idle or weight), and I/O has none that is applied.
     *
     * @param cpuIdle    whether cpu-idle stands in for class idle
     * @param weight     the weight that stands in for the nice, if any
     * @param without    the per-task parts nothing stands in for, in words, that ask for something a container cannot do
     *                   without (an I/O class)
     * @param unmatched  the per-task parts nothing stands in for yet, in words, whose CPU share is the default one (class
     *                   batch, a realtime class, a negative nice where raising is allowed): the container runs without
     *                   them at class normal, and says so
     */
    public record Equivalent(boolean cpuIdle, java.util.OptionalInt weight, List<String> without, List<String> unmatched) {
        public Equivalent {
            without = List.copyOf(without);
            unmatched = List.copyOf(unmatched);
        }

        /** Whether anything stands in for a per-task part. */
        public boolean any() {
            return cpuIdle || weight.isPresent();
        }

        /** {@code policy} with the stand-ins added: what the container's group is asked to carry. */
        public Policy applyTo(final Policy policy) {
            Policy.Builder b = policy.toBuilder();
            if (cpuIdle) {
                b.cpuIdle(true);
            }
            weight.ifPresent(b::cpuWeight);
            return b.build();
        }

        /** What stands in, in words ("the container's group under an idle parent", "cpu weight 1 ..."). */
        public String describe(final Policy policy) {
            List<String> what = new ArrayList<>();
            if (cpuIdle) {
                what.add("cpu-idle (the container's group under an idle parent)");
            }
            weight.ifPresent(w -> what.add("cpu weight " + w + " (the share of nice " + policy.nice().orElse(0) + " against nice 0)"));
            return String.join(" and ", what);
        }
    }

    /** The stand-ins for {@code policy}'s per-task parts on a container. */
    public static Equivalent equivalent(final Policy policy) {
        boolean idleClass = policy.schedClass().filter(c -> c == SchedClass.IDLE).isPresent();
        boolean cpuIdle = idleClass && !policy.cpuIdle();
        java.util.OptionalInt weight = java.util.OptionalInt.empty();
        if (!idleClass && !policy.cpuIdle() && policy.cpuWeight().isEmpty() && policy.nice().isPresent()
                && weightForNice(policy.nice().getAsInt()) < 100) {
            weight = java.util.OptionalInt.of(weightForNice(policy.nice().getAsInt()));
        }
        List<String> without = new ArrayList<>();
        policy.io().ifPresent(io -> without.add("io " + io));
        List<String> unmatched = new ArrayList<>();
        policy.schedClass().filter(c -> c != SchedClass.NORMAL && c != SchedClass.IDLE).ifPresent(c -> unmatched.add("class " + c.label()));
        if (!idleClass && !policy.cpuIdle() && policy.cpuWeight().isEmpty() && weight.isEmpty()
                && policy.nice().isPresent() && policy.nice().getAsInt() != 0) {
            unmatched.add("nice " + policy.nice().getAsInt());
        }
        return new Equivalent(cpuIdle, weight, without, unmatched);
    }

    /** The cgroup weight (100 = nice 0) with the share nice {@code nice} has against a nice-0 task; at least 1. */
    static int weightForNice(final int nice) {
        int n = Math.max(0, Math.min(19, nice));
        return Math.max(1, Math.round(NICE_WEIGHT[n] * 100f / NICE_WEIGHT[0]));
    }
}
