package dev.schedpolicy.engine.policy;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The priority a launch starts from: its caller's own scheduling class, nice and I/O priority as the kernel
 * reports them. Fixed thresholds alone let {@code nice -n 10 schedpolicy run --nice 0} hand the command more than
 * its caller had; the rule here is relative: a policy may lower any part but never make the command more favoured
 * than its caller, unless raising is allowed. In Jenkins this keeps a job inside an agent an administrator lowered.
 *
 * @param kernelPolicy the caller's kernel scheduling policy number (0 normal, 3 batch, 5 idle, 1/2 realtime, 6 deadline)
 * @param rtPriority   its realtime priority (0 outside the realtime classes)
 * @param nice         its nice value
 * @param ioprio       its raw ioprio value, (class << 13) | level; class 0 ("none") follows the CPU policy
 */
public record CallerPriority(int kernelPolicy, int rtPriority, int nice, int ioprio) implements Serializable {
    /** A caller at the kernel's defaults: normal, nice 0, no I/O priority set. */
    public static final CallerPriority DEFAULT = new CallerPriority(SchedClass.NORMAL.kernelValue(), 0, 0, 0);

    /**
     * The parts of {@code policy} that would make the command more favoured than the caller, each in words with
     * what is allowed instead; empty when the policy only keeps or lowers.
     */
    public List<String> raisesOf(final Policy policy) {
        List<String> raises = new ArrayList<>();
        int resultPolicy = policy.schedClass().map(SchedClass::kernelValue).orElse(kernelPolicy);
        int resultRt = policy.schedClass().isPresent() ? policy.rtPriority().orElse(0) : rtPriority;
        int resultNice = policy.nice().orElse(nice);
        if (Favour.cpuRank(resultPolicy) > Favour.cpuRank(kernelPolicy)
                || Favour.isRealtime(resultPolicy) && Favour.isRealtime(kernelPolicy) && resultRt > rtPriority) {
            raises.add("scheduling class " + label(resultPolicy, resultRt) + " is more favoured than the caller's "
                    + label(kernelPolicy, rtPriority) + "; use " + classesAtOrBelow(kernelPolicy));
        } else if (resultNice < nice) {
            // even where the class ignores nice (idle), a lower nice is a raise the kernel refuses without privilege
            raises.add("nice " + resultNice + " is more favoured than the caller's nice " + nice + "; use " + nice + "..19");
        }
        int resultIo = policy.io().map(IoPriority::kernelValue).orElse(ioprio);
        int callerEffective = Favour.effectiveIo(ioprio, kernelPolicy, nice);
        int resultEffective = Favour.effectiveIo(resultIo, resultPolicy, resultNice);
        // with no I/O priority asked, a raised I/O priority only follows a raised class or nice, reported already
        boolean followsCpu = policy.io().isEmpty() && !raises.isEmpty();
        if (!followsCpu && Favour.ioRank(resultEffective) > Favour.ioRank(callerEffective)) {
            raises.add("I/O priority " + IoPriority.fromKernel(resultEffective) + " is more favoured than the caller's "
                    + IoPriority.fromKernel(callerEffective) + (ioprio >> 13 == 0 ? " (which follows its CPU priority)" : "")
                    + "; use " + ioAtOrBelow(callerEffective));
        }
        return raises;
    }

    /** Throws naming every raised part when {@code policy} would favour the command over the caller. */
    public void check(final Policy policy) {
        List<String> raises = raisesOf(policy);
        if (!raises.isEmpty()) {
            throw new InvalidPolicyException(String.join("; ", raises)
                    + " (a command never gets more than its caller has unless raising is allowed: --allow-raise as root)");
        }
    }

    private static String label(final int kernel, final int rt) {
        return SchedClass.kernelName(kernel) + (Favour.isRealtime(kernel) ? ":" + rt : "");
    }

    private static String classesAtOrBelow(final int kernel) {
        List<String> allowed = new ArrayList<>();
        for (SchedClass c : new SchedClass[] {SchedClass.NORMAL, SchedClass.BATCH, SchedClass.IDLE}) {
            if (Favour.cpuRank(c.kernelValue()) <= Favour.cpuRank(kernel)) {
                allowed.add(c.label());
            }
        }
        return String.join(", ", allowed);
    }

    private static String ioAtOrBelow(final int io) {
        IoPriority p = IoPriority.fromKernel(io);
        return switch (p.ioClass()) {
            case IDLE -> "idle";
            case BE -> (p.level() == 7 ? "be:7" : "be:" + p.level() + "..be:7") + " or idle";
            default -> p.toString().toLowerCase(Locale.ROOT) + " or lower";
        };
    }
}
