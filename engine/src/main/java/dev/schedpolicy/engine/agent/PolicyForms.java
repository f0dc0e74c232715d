package dev.schedpolicy.engine.agent;

import dev.schedpolicy.engine.policy.InvalidPolicyException;
import dev.schedpolicy.engine.policy.Policy;
import dev.schedpolicy.engine.policy.PolicyFloor;
import dev.schedpolicy.engine.policy.StructuredPolicy;

import java.util.List;

/**
 * Turns the separate fields of a Jenkins step, wrapper or form (any of them may be unset) into one
 * policy, and merges the layers that apply to one launch. Blank strings count as unset, because
 * Jenkins forms submit empty fields as "".
 */
public final class PolicyForms {
    /** What a guarded step's launches never run above: class normal, nice 0. */
    private static final Policy GUARDED_CEILING = Policy.parse("normal+nice0");

    private PolicyForms() {
    }

    /**
     * The policy {@code policy} (compact form, may be blank) with every other non-blank field overriding it.
     *
     * @throws InvalidPolicyException naming the field and what is allowed
     */
    public static Policy fromFields(final String policy, final Integer nice, final String io, final Integer cpuQuota,
            final Integer cpuWeight, final Boolean cpuIdle, final String cpus, final String onUnsupported) {
        return StructuredPolicy.of(policy, nice, io, cpuQuota, cpuWeight, cpuIdle, cpus, onUnsupported);
    }

    /** The compact form of {@link #fromFields}; validates like it. */
    public static String compact(final String policy, final Integer nice, final String io, final Integer cpuQuota,
            final Integer cpuWeight, final Boolean cpuIdle, final String cpus, final String onUnsupported) {
        return fromFields(policy, nice, io, cpuQuota, cpuWeight, cpuIdle, cpus, onUnsupported).toCompact();
    }

    /** A compact policy, or the default (no change) when blank. */
    public static Policy parseOrDefault(final String compact) {
        return blank(compact) ? Policy.DEFAULT : Policy.parse(compact.trim());
    }

    /**
     * The policy one launch runs under: the agent's default, then each enclosing block from the outside
     * in, the innermost winning per field. Blank or null layers are skipped.
     */
    public static Policy merge(final String... layersOutermostFirst) {
        Policy result = Policy.DEFAULT;
        for (String layer : layersOutermostFirst) {
            if (!blank(layer)) {
                result = result.overriddenBy(Policy.parse(layer.trim()));
            }
        }
        return result;
    }

    /**
     * The policy a block's launches run under: the enclosing blocks and this block merged (inner wins),
     * over the administrator's default, which stays a floor unless {@code limits} allow authors above it.
     *
     * @param agentDefault the node's or the global default policy, compact, may be blank
     * @param enclosing    the merged policy of the enclosing block, compact, may be blank
     * @param requested    this block's policy, compact, may be blank
     */
    public static PolicyFloor.Floored mergeOverDefault(final String agentDefault, final String enclosing, final String requested,
            final AgentLimits limits) {
        Policy merged = merge(agentDefault, enclosing, requested);
        if (limits.allowAboveDefault()) {
            return new PolicyFloor.Floored(merged, List.of());
        }
        return PolicyFloor.apply(parseOrDefault(agentDefault), merged);
    }

    /**
     * The policy a launch of a guarded step runs under, when an administrator lets the step guard: the step is what must
     * stay fast on an agent whose default lowers everything else, so the default is no floor here; the launch runs as
     * its own blocks ask (normal when none does), and never above normal, whatever the limits let authors ask for.
     *
     * @param enclosing the merged policy of the enclosing blocks, compact, may be blank
     * @param requested the launch's own layers, compact, may be blank
     */
    public static PolicyFloor.Floored guarded(final String enclosing, final String requested) {
        return PolicyFloor.apply(GUARDED_CEILING, merge(enclosing, requested), "the guard's");
    }

    /** Validates a compact policy and returns its canonical form; the message says what is allowed. */
    public static String canonical(final String compact) {
        if (blank(compact)) {
            throw new InvalidPolicyException("the policy is empty; use e.g. 'idle', 'batch+nice19' or 'nice10+io-idle+quota50'");
        }
        return Policy.parse(compact.trim()).toCompact();
    }

    static boolean blank(final String s) {
        return s == null || s.isBlank();
    }
}
