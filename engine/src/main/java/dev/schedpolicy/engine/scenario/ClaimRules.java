package dev.schedpolicy.engine.scenario;

import dev.schedpolicy.engine.policy.Policy;
import java.util.Locale;
import java.util.Optional;

/**
 * The kernel facts a claim must not deny, so no scenario file can print an expectation the scheduler cannot meet:
 * nice, batch and idle are weighed only within one task group, so they cannot keep a victim in another task group
 * near its unloaded rate; and a cpu.idle or weight group is weighed only against its siblings, so outside the agent
 * it protects only from the machine-wide idle parent. A quota caps its group wherever the group sits.
 */
final class ClaimRules {
    private ClaimRules() {
    }

    /** Why the claim cannot hold in the topology, or empty when it may. */
    static Optional<String> violation(final Topology topology, final Claim claim) {
        if (!claim.atLeast()) {
            return Optional.empty();
        }
        String label = claim.policy().toLowerCase(Locale.ROOT);
        if (label.equals("default") || label.equals("none") || label.equals("split")) {
            return Optional.empty();
        }
        Policy p = Policy.parse(label);
        boolean relativeGroup = (p.cpuIdle() || p.cpuWeight().isPresent()) && p.cpuQuotaPercent().isEmpty();
        if (!p.needsCgroup() && !topology.sharesTaskGroup()) {
            return Optional.of("claim '" + claim + "' cannot hold in " + topology.id() + ": nice, batch and idle act"
                    + " only within one task group, and there the victim sits in another; claim '" + label + " < ...'"
                    + " or leave it out");
        }
        if (relativeGroup && topology == Topology.OUTSIDE_AGENT && claim.when() != Claim.When.WITH_IDLE_PARENT) {
            return Optional.of("claim '" + claim + "' cannot hold in outside-agent without the machine-wide idle parent:"
                    + " a cpu.idle or weight group under the agent's own cgroup is weighed only against the agent's"
                    + " other groups; write '" + claim.policy() + " >= ... with idle parent'");
        }
        return Optional.empty();
    }
}
