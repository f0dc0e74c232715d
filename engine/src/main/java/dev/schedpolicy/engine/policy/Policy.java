package dev.schedpolicy.engine.policy;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * An immutable request for how a launched process tree should be scheduled. Every field is optional:
 * an absent field leaves the kernel's inherited value alone, which is what makes nested blocks combine
 * (the inner block wins per field, see {@link #overriddenBy}).
 */
public final class Policy implements Serializable {
    private static final long serialVersionUID = 1L;
    public static final Policy DEFAULT = new Builder().build();

    private final SchedClass schedClass;
    private final Integer rtPriority;
    private final Integer nice;
    private final IoPriority io;
    private final Integer cpuQuotaPercent;
    private final Integer cpuWeight;
    private final Boolean cpuIdle;
    private final CpuList cpus;
    private final OnUnsupported onUnsupported;

    private Policy(final Builder b) {
        this.schedClass = b.schedClass;
        this.rtPriority = b.rtPriority;
        this.nice = b.nice;
        this.io = b.io;
        this.cpuQuotaPercent = b.cpuQuotaPercent;
        this.cpuWeight = b.cpuWeight;
        this.cpuIdle = b.cpuIdle;
        this.cpus = b.cpus;
        this.onUnsupported = b.onUnsupported;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Parses the compact form, e.g. {@code idle}, {@code batch+nice19}, {@code nice10+io-idle+quota50}. */
    public static Policy parse(final String compact) {
        return CompactPolicyParser.parse(compact);
    }

    public Optional<SchedClass> schedClass() {
        return Optional.ofNullable(schedClass);
    }

    /** Realtime priority 1..99; only meaningful with FIFO or RR. */
    public OptionalInt rtPriority() {
        return rtPriority == null ? OptionalInt.empty() : OptionalInt.of(rtPriority);
    }

    public OptionalInt nice() {
        return nice == null ? OptionalInt.empty() : OptionalInt.of(nice);
    }

    public Optional<IoPriority> io() {
        return Optional.ofNullable(io);
    }

    /** Percent of one CPU: 50 is half a CPU, 150 one and a half. */
    public OptionalInt cpuQuotaPercent() {
        return cpuQuotaPercent == null ? OptionalInt.empty() : OptionalInt.of(cpuQuotaPercent);
    }

    /** cgroup v2 cpu.weight scale, 1..10000, 100 being the default (v1: shares = weight x 1024 / 100). */
    public OptionalInt cpuWeight() {
        return cpuWeight == null ? OptionalInt.empty() : OptionalInt.of(cpuWeight);
    }

    public Optional<Boolean> cpuIdleSetting() {
        return Optional.ofNullable(cpuIdle);
    }

    public boolean cpuIdle() {
        return Boolean.TRUE.equals(cpuIdle);
    }

    public Optional<CpuList> cpus() {
        return Optional.ofNullable(cpus);
    }

    public OnUnsupported onUnsupported() {
        return onUnsupported == null ? OnUnsupported.FAIL : onUnsupported;
    }

    /** Whether a child cgroup is needed, i.e. any of quota, weight or the idle flag is asked for. */
    public boolean needsCgroup() {
        return cpuQuotaPercent != null || cpuWeight != null || cpuIdle();
    }

    /** Whether the policy changes anything at all. */
    public boolean isDefault() {
        return schedClass == null && nice == null && io == null && !needsCgroup() && cpus == null;
    }

    /** This policy with every field that {@code inner} sets replaced by inner's value (nested blocks). */
    public Policy overriddenBy(final Policy inner) {
        Builder b = toBuilder();
        if (inner.schedClass != null) {
            b.schedClass = inner.schedClass;
            b.rtPriority = inner.rtPriority;
        }
        b.nice = inner.nice != null ? inner.nice : nice;
        b.io = inner.io != null ? inner.io : io;
        b.cpuQuotaPercent = inner.cpuQuotaPercent != null ? inner.cpuQuotaPercent : cpuQuotaPercent;
        b.cpuWeight = inner.cpuWeight != null ? inner.cpuWeight : cpuWeight;
        b.cpuIdle = inner.cpuIdle != null ? inner.cpuIdle : cpuIdle;
        // weight and the idle flag are two answers to one question (the group's share): the inner one replaces
        // the outer one, or the merge of two valid blocks would be refused by build()
        if (Boolean.TRUE.equals(inner.cpuIdle)) {
            b.cpuWeight = inner.cpuWeight;
        }
        if (inner.cpuWeight != null && Boolean.TRUE.equals(b.cpuIdle) && !Boolean.TRUE.equals(inner.cpuIdle)) {
            b.cpuIdle = null;
        }
        b.cpus = inner.cpus != null ? inner.cpus : cpus;
        b.onUnsupported = inner.onUnsupported != null ? inner.onUnsupported : onUnsupported;
        return b.build();
    }

    public Builder toBuilder() {
        Builder b = new Builder();
        b.schedClass = schedClass;
        b.rtPriority = rtPriority;
        b.nice = nice;
        b.io = io;
        b.cpuQuotaPercent = cpuQuotaPercent;
        b.cpuWeight = cpuWeight;
        b.cpuIdle = cpuIdle;
        b.cpus = cpus;
        b.onUnsupported = onUnsupported;
        return b;
    }

    /** The canonical compact form; {@code parse(p.toCompact())} equals {@code p}. */
    public String toCompact() {
        List<String> parts = new ArrayList<>();
        if (schedClass != null) {
            parts.add(schedClass.label() + (rtPriority != null ? ":" + rtPriority : ""));
        }
        if (nice != null) {
            parts.add("nice" + nice);
        }
        if (io != null) {
            parts.add("io-" + io.toString().replace(":", ""));
        }
        if (cpuQuotaPercent != null) {
            parts.add("quota" + cpuQuotaPercent);
        }
        if (cpuWeight != null) {
            parts.add("weight" + cpuWeight);
        }
        if (cpuIdle != null) {
            parts.add(cpuIdle ? "cpu-idle" : "no-cpu-idle");
        }
        if (cpus != null) {
            parts.add("cpus=" + cpus);
        }
        if (onUnsupported != null) {
            parts.add(onUnsupported == OnUnsupported.WARN ? "warn" : "fail");
        }
        return parts.isEmpty() ? "default" : String.join("+", parts);
    }

    @Override
    public String toString() {
        return toCompact();
    }

    @Override
    public boolean equals(final Object o) {
        return o instanceof Policy p && p.toCompact().equals(toCompact());
    }

    @Override
    public int hashCode() {
        return Objects.hash(toCompact());
    }

    /** Collects fields; {@link #build()} validates ranges (not limits: see {@link PolicyLimits}). */
    public static final class Builder {
        private SchedClass schedClass;
        private Integer rtPriority;
        private Integer nice;
        private IoPriority io;
        private Integer cpuQuotaPercent;
        private Integer cpuWeight;
        private Boolean cpuIdle;
        private CpuList cpus;
        private OnUnsupported onUnsupported;

        private Builder() {
        }

        public Builder schedClass(final SchedClass value) {
            this.schedClass = value;
            return this;
        }

        public Builder rtPriority(final Integer value) {
            this.rtPriority = value;
            return this;
        }

        public Builder nice(final Integer value) {
            this.nice = value;
            return this;
        }

        public Builder io(final IoPriority value) {
            this.io = value;
            return this;
        }

        public Builder cpuQuotaPercent(final Integer value) {
            this.cpuQuotaPercent = value;
            return this;
        }

        public Builder cpuWeight(final Integer value) {
            this.cpuWeight = value;
            return this;
        }

        public Builder cpuIdle(final Boolean value) {
            this.cpuIdle = value;
            return this;
        }

        public Builder cpus(final CpuList value) {
            this.cpus = value;
            return this;
        }

        public Builder cpus(final String value) {
            this.cpus = value == null || value.isBlank() ? null : CpuList.parse(value);
            return this;
        }

        public Builder onUnsupported(final OnUnsupported value) {
            this.onUnsupported = value;
            return this;
        }

        public Policy build() {
            if (nice != null && nice > 19) {
                throw new InvalidPolicyException("nice must be 0..19 (19 is the lowest priority), not " + nice);
            }
            if (nice != null && nice < -20) {
                throw new InvalidPolicyException("nice must be -20..19 where raising is allowed (0..19 otherwise), not " + nice);
            }
            if (rtPriority != null) {
                if (schedClass == null || !schedClass.isRealtime()) {
                    throw new InvalidPolicyException("a realtime priority needs the fifo or rr class");
                }
                if (rtPriority < 1 || rtPriority > 99) {
                    throw new InvalidPolicyException("realtime priority must be 1..99, not " + rtPriority
                            + "; realtime classes raise priority and are allowed only where raising is (--allow-raise as root),"
                            + " otherwise use " + SchedClass.allowedLabels());
                }
            }
            if (schedClass != null && schedClass.isRealtime() && rtPriority == null) {
                rtPriority = 1;
            }
            if (io != null && io.ioClass() == IoPriority.IoClass.NONE) {
                throw new InvalidPolicyException("I/O priority 'none' is what a task has when no I/O priority was set;"
                        + " leave it out, or use idle or be:N with N 0..7 (7 lowest)");
            }
            if (cpuQuotaPercent != null && cpuQuotaPercent < 1) {
                throw new InvalidPolicyException("CPU quota must be a positive percent of one CPU (e.g. 50 for half a CPU, 150 for one and a half), not "
                        + cpuQuotaPercent);
            }
            if (cpuWeight != null && (cpuWeight < 1 || cpuWeight > 10000)) {
                throw new InvalidPolicyException("CPU weight must be 1..10000 (100 is the default), not " + cpuWeight);
            }
            if (cpuWeight != null && Boolean.TRUE.equals(cpuIdle)) {
                throw new InvalidPolicyException("CPU weight and cpu-idle cannot be combined: an idle cgroup has the lowest weight by definition; use one of them");
            }
            return new Policy(this);
        }
    }
}
