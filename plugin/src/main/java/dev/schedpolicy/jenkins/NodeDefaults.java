package dev.schedpolicy.jenkins;

import dev.schedpolicy.engine.agent.AgentLimits;
import edu.umd.cs.findbugs.annotations.CheckForNull;
import hudson.model.Node;

/** Where the agent default and the limits come from: the node's property, else the global configuration. */
final class NodeDefaults {
    private NodeDefaults() {
    }

    /** The compact default policy for launches on {@code node}, or null when there is none. */
    @CheckForNull
    static String policyFor(@CheckForNull final Node node) {
        if (node != null) {
            SchedPolicyNodeProperty p = node.getNodeProperties().get(SchedPolicyNodeProperty.class);
            if (p != null) {
                return PolicyFields.blankToNull(p.getPolicy());
            }
        }
        return PolicyFields.blankToNull(SchedPolicyConfiguration.get().getDefaultPolicy());
    }

    /** Where {@link #policyFor} takes the default from, in words for the fleet view. */
    static String policySourceOf(@CheckForNull final Node node) {
        if (node != null && node.getNodeProperties().get(SchedPolicyNodeProperty.class) != null) {
            return Messages.Fleet_defaultFromNode();
        }
        return PolicyFields.blankToNull(SchedPolicyConfiguration.get().getDefaultPolicy()) == null ? Messages.Fleet_noDefault()
                : Messages.Fleet_defaultFromGlobal();
    }

    static AgentLimits limits() {
        return SchedPolicyConfiguration.get().toLimits();
    }

    static int timeoutSeconds() {
        return SchedPolicyConfiguration.get().getHandshakeTimeoutSeconds();
    }

    /** The cgroup parent for launches on {@code node}: the node property's, else the global one; null for none. */
    @CheckForNull
    static String cgroupParentFor(@CheckForNull final Node node) {
        if (node != null) {
            SchedPolicyNodeProperty p = node.getNodeProperties().get(SchedPolicyNodeProperty.class);
            if (p != null && PolicyFields.blankToNull(p.getCgroupParent()) != null) {
                return p.getCgroupParent();
            }
        }
        return PolicyFields.blankToNull(SchedPolicyConfiguration.get().getCgroupParent());
    }

    /** Everything a launch on {@code node} needs besides its policy and block. */
    static LaunchSettings settings(final String policy, final String blockKey, @CheckForNull final String runId,
            @CheckForNull final Node node) {
        return new LaunchSettings(policy, blockKey, runId, limits(), timeoutSeconds(), cgroupParentFor(node), nameOf(node),
                policyFor(node)).measured(measureOn(node));
    }

    /** Whether launches on {@code node} are measured: the node property's switch, else the global one. */
    static boolean measureOn(@CheckForNull final Node node) {
        if (node != null) {
            SchedPolicyNodeProperty p = node.getNodeProperties().get(SchedPolicyNodeProperty.class);
            if (p != null && p.isMeasure()) {
                return true;
            }
        }
        return SchedPolicyConfiguration.get().isMeasureAllSteps();
    }

    /** The node's name as the engine's records give it: "" for the built-in node. */
    static String nameOf(@CheckForNull final Node node) {
        return node == null ? "" : node.getNodeName();
    }
}
