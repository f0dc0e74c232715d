package dev.schedpolicy.engine.policy;

/**
 * The structured form: a compact policy plus separate fields, as command-line options and Jenkins step
 * parameters give them. Every given field overrides the compact policy's; blank fields are absent. Values go to
 * the parsers untrimmed: trim() would also drop control characters, which the parsers refuse.
 */
public final class StructuredPolicy {
    private StructuredPolicy() {
    }

    /**
     * @param policy compact form, may be blank (then the default: no change)
     * @throws InvalidPolicyException naming the field and what is allowed
     */
    public static Policy of(final String policy, final Integer nice, final String io, final Integer cpuQuota,
            final Integer cpuWeight, final Boolean cpuIdle, final String cpus, final String onUnsupported) {
        Policy base = blank(policy) ? Policy.DEFAULT : Policy.parse(policy);
        Policy.Builder fields = Policy.builder().nice(nice).cpuQuotaPercent(cpuQuota).cpuWeight(cpuWeight).cpuIdle(cpuIdle);
        if (!blank(io)) {
            fields.io(IoPriority.parse(io));
        }
        if (!blank(cpus)) {
            fields.cpus(CpuList.parse(cpus));
        }
        if (!blank(onUnsupported)) {
            fields.onUnsupported(OnUnsupported.parse(onUnsupported));
        }
        return base.overriddenBy(fields.build());
    }

    private static boolean blank(final String s) {
        return s == null || s.isBlank();
    }
}
