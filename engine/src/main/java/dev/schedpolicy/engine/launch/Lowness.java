package dev.schedpolicy.engine.launch;

import dev.schedpolicy.engine.policy.CpuList;
import dev.schedpolicy.engine.policy.Favour;
import dev.schedpolicy.engine.policy.IoPriority;
import dev.schedpolicy.engine.policy.InvalidPolicyException;
import dev.schedpolicy.engine.policy.Policy;
import dev.schedpolicy.engine.policy.SchedClass;
import dev.schedpolicy.engine.proc.TaskStat;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * Compares a running command's read-back with the policy, accepting anything at least as low as asked: class,
 * nice and I/O priority no more favoured, CPUs a subset, the cgroup ours or below it. Only a command that
 * raised itself (possible for root) reads back above the policy.
 */
final class Lowness {
    private final TaskStat stat;
    private final int rawIo;
    private final String cpus;
    private final String cgroup;

    /** @param rawIo the ioprio value read, or -1 when it could not be read */
    Lowness(final TaskStat stat, final int rawIo, final String cpus, final String cgroup) {
        this.stat = stat;
        this.rawIo = rawIo;
        this.cpus = cpus;
        this.cgroup = cgroup;
    }

    List<String> raisedAbove(final Policy policy, final String expectedCgroup) {
        List<String> raised = new ArrayList<>();
        int readClass = stat.policy();
        policy.schedClass().filter(c -> Favour.cpuRank(readClass) > Favour.cpuRank(c.kernelValue()))
                .ifPresent(c -> raised.add("scheduling class is " + SchedClass.kernelName(readClass) + ", above " + c.label()));
        policy.nice().ifPresent(n -> {
            if (Favour.weighsNice(readClass) && stat.nice() < n) {
                raised.add("nice is " + stat.nice() + ", above " + n);
            }
        });
        policy.io().ifPresent(asked -> {
            int effective = rawIo < 0 ? -1 : Favour.effectiveIo(rawIo, readClass, stat.nice());
            if (effective < 0 || Favour.ioRank(effective) > Favour.ioRank(asked.kernelValue())) {
                raised.add("I/O priority is " + (effective < 0 ? "unknown" : IoPriority.fromKernel(effective)) + ", above " + asked);
            }
        });
        policy.cpus().filter(asked -> !subsetOf(asked))
                .ifPresent(asked -> raised.add("allowed CPUs are " + cpus + ", beyond " + asked));
        if (expectedCgroup != null && !cgroup.equals(expectedCgroup) && !cgroup.startsWith(expectedCgroup + "/")) {
            raised.add("cpu cgroup is " + cgroup + ", outside " + expectedCgroup);
        }
        return raised;
    }

    private boolean subsetOf(final CpuList asked) {
        try {
            BitSet read = CpuList.parse(cpus).toBitSet();
            read.andNot(asked.toBitSet());
            return read.isEmpty();
        } catch (InvalidPolicyException e) {
            return false;
        }
    }
}
