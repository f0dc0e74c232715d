package dev.schedpolicy.engine.policy;

import java.io.Serializable;
import java.util.BitSet;

/** A CPU list in the kernel's own syntax ("0-3,6"), as in /proc/PID/status Cpus_allowed_list. */
public final class CpuList implements Serializable {
    private static final long serialVersionUID = 1L;
    /** Beyond any machine this tool will see; guards against "0-99999999" allocating gigabytes. */
    static final int MAX_CPU = 8191;

    private final BitSet cpus;

    private CpuList(final BitSet cpus) {
        this.cpus = cpus;
    }

    public static CpuList of(final BitSet cpus) {
        if (cpus.isEmpty()) {
            throw new InvalidPolicyException("a CPU list needs at least one CPU");
        }
        return new CpuList((BitSet) cpus.clone());
    }

    public static CpuList parse(final String text) {
        if (text == null || text.isBlank()) {
            throw new InvalidPolicyException("CPU list is empty; write CPUs as in taskset -c, e.g. '0', '0-1' or '0,2-3'");
        }
        PolicyText.printable("CPU list", text);
        BitSet set = new BitSet();
        for (String part : text.trim().split(",", -1)) {
            String[] range = part.trim().split("-", -1);
            if (range.length > 2 || !range[0].matches("\\d{1,5}") || range.length == 2 && !range[1].matches("\\d{1,5}")) {
                throw new InvalidPolicyException("CPU list '" + text
                        + "' is not valid; write CPUs as in taskset -c, e.g. '0', '0-1' or '0,2-3'");
            }
            int from = Integer.parseInt(range[0]);
            int to = range.length == 2 ? Integer.parseInt(range[1]) : from;
            if (to < from || to > MAX_CPU) {
                throw new InvalidPolicyException("CPU range '" + part.trim() + "' in '" + text
                        + "' is not valid; ranges go low-high with CPUs 0.." + MAX_CPU);
            }
            set.set(from, to + 1);
        }
        return new CpuList(set);
    }

    /** Refuses CPUs outside {@code machine}, naming them and the ones that exist, instead of the kernel's bare EINVAL. */
    public void requireWithin(final CpuList machine) {
        BitSet missing = toBitSet();
        missing.andNot(machine.cpus);
        if (!missing.isEmpty()) {
            CpuList gone = new CpuList(missing);
            throw new InvalidPolicyException((gone.count() == 1 ? "CPU " + gone + " does not exist" : "CPUs " + gone + " do not exist")
                    + "; this machine has CPUs " + machine);
        }
    }

    public BitSet toBitSet() {
        return (BitSet) cpus.clone();
    }

    public int highest() {
        return cpus.length() - 1;
    }

    public int count() {
        return cpus.cardinality();
    }

    @Override
    public boolean equals(final Object o) {
        return o instanceof CpuList other && other.cpus.equals(cpus);
    }

    @Override
    public int hashCode() {
        return cpus.hashCode();
    }

    /** Canonical kernel form with ranges collapsed, so read-back compares as text. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        int i = cpus.nextSetBit(0);
        while (i >= 0) {
            int end = cpus.nextClearBit(i) - 1;
            if (sb.length() > 0) {
                sb.append(',');
            }
            sb.append(i);
            if (end > i) {
                sb.append('-').append(end);
            }
            i = cpus.nextSetBit(end + 1);
        }
        return sb.toString();
    }
}
