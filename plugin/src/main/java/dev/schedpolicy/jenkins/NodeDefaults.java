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

    static AgentLimits limits() {
        return SchedPolicyConfiguration.get().toLimits();
    }

    static int timeoutSeconds() {
        return SchedPolicyConfiguration.get().getHandshakeTimeoutSeconds();
    }
}
