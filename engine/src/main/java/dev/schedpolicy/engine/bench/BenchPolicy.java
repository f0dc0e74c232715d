package dev.schedpolicy.engine.bench;

import java.util.Locale;

/**
 * A matrix row's policy as the scenario names it: {@code default} (nothing applied), {@code split}
 * (affinity split: the policed side pinned to the upper half of the CPUs, the other side left free), {@code guard}
 * (nothing applied; the victim is guarded, as {@code withSchedGuard} guards a test step: {@link BenchGuard}),
 * {@code guard+POLICY} (the background under POLICY, e.g. {@code guard+idle}, and the victim guarded beside it),
 * or any compact policy the engine parses (e.g. {@code batch+nice19}, {@code quota50}, {@code cpu-idle}).
 *
 * @param label   as written in the scenario
 * @param compact what the engine launcher gets, or null for none
 */
public record BenchPolicy(String label, String compact) {
    public static final BenchPolicy DEFAULT = new BenchPolicy("default", null);
    static final String GUARD = "guard";

    public static BenchPolicy of(final String label, final int ncpu) {
        String l = label.trim().toLowerCase(Locale.ROOT);
        if (l.equals("default") || l.equals("none")) {
            return new BenchPolicy(l, null);
        }
        if (l.equals(GUARD)) {
            return new BenchPolicy(l, null);
        }
        if (l.startsWith(GUARD + "+")) {
            BenchPolicy beside = of(l.substring(GUARD.length() + 1), ncpu);
            if (beside.isGuard() || beside.compact() == null) {
                throw new IllegalArgumentException("'" + label.trim() + "': after guard+ comes the background's policy, e.g."
                        + " guard+idle or guard+cpu-idle; for an unlowered background write guard");
            }
            return new BenchPolicy(l, beside.compact());
        }
        if (l.equals("split")) {
            int from = Math.max(1, ncpu / 2);
            int to = Math.max(from, ncpu - 1);
            return new BenchPolicy(l, "cpus=" + (from == to ? Integer.toString(from) : from + "-" + to));
        }
        return new BenchPolicy(l, l);
    }

    /** Pins to one CPU (a pinned victim copy), merged with this policy. */
    public BenchPolicy pinnedTo(final int cpu) {
        String pin = "cpus=" + cpu;
        return new BenchPolicy(label + "@cpu" + cpu, compact == null ? pin : compact + "+" + pin);
    }

    /** A guard row: the victim is guarded while the run measures (nothing, or the row's policy, on the background). */
    public boolean isGuard() {
        return label.equals(GUARD) || label.startsWith(GUARD + "@") || label.startsWith(GUARD + "+");
    }

    /** Whether nothing is applied to the processes started under it (default, and the guard row). */
    public boolean isDefault() {
        return compact == null;
    }

    /** Whether the policy has a cgroup part (quota, weight, cpu-idle), so its processes get a group of their own. */
    public boolean needsCgroup() {
        return compact != null && dev.schedpolicy.engine.policy.Policy.parse(compact).needsCgroup();
    }
}
