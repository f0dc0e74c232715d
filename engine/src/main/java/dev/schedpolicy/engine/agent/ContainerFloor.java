package dev.schedpolicy.engine.agent;

import dev.schedpolicy.engine.container.ContainerCommand;
import dev.schedpolicy.engine.container.ContainerEscapes;
import dev.schedpolicy.engine.container.ContainerRefusal;
import dev.schedpolicy.engine.policy.Policy;

import java.util.List;

/**
 * What a container start's escape options ({@link ContainerEscapes}) meet on this node. Under the administrator's floor
 * (a node default that authors may not run above) they are refused: the floor is what the administrator relies on,
 * and a container with them can leave it at will. Where the administrator allowed raising priorities, or where the
 * policy is the author's own, the container runs and its record says what cannot hold, so nothing says "verified"
 * for it.
 *
 * @param floor        the node's default policy as a floor; {@link Policy#DEFAULT} when there is none or authors may run
 *                     above it
 * @param raiseAllowed whether the administrator allowed raising priorities
 */
record ContainerFloor(Policy floor, boolean raiseAllowed) {
    /** No floor: the policy is the author's own. */
    static final ContainerFloor NONE = new ContainerFloor(Policy.DEFAULT, false);

    /** @param agentDefault the node's default policy, compact, may be blank */
    static ContainerFloor of(final String agentDefault, final AgentLimits limits) {
        Policy floor = limits.allowAboveDefault() ? Policy.DEFAULT : PolicyForms.parseOrDefault(agentDefault);
        return new ContainerFloor(floor, limits.allowRaise());
    }

    /**
     * What of {@code policy} cannot hold for the container {@code command} starts or joins, in words (empty when all can).
     *
     * @throws ContainerRefusal when the command leaves the administrator's floor and raising is not allowed
     */
    List<String> check(final ContainerCommand command, final Policy policy) {
        List<String> escapes = ContainerEscapes.of(command);
        if (escapes.isEmpty()) {
            return List.of();
        }
        String options = command.describe() + " has " + String.join(", ", escapes);
        if (!floor.isDefault() && !raiseAllowed) {
            throw new ContainerRefusal(options + ", which let the container leave the administrator's floor '" + floor.toCompact()
                    + "' on this agent: leave " + (escapes.size() == 1 ? "it" : "them") + " out of the container's options (inside('...'),"
                    + " agent { docker { args } }), or run the build on an agent without a floor (Docker access is root-equivalent:"
                    + " docs/jenkins.md)");
        }
        String what = floor.isDefault() ? "'" + policy.toCompact() + "'" : "the administrator's floor '" + floor.toCompact()
                + "' (raising priorities is allowed here)";
        return List.of(what + " cannot hold: " + options);
    }
}
