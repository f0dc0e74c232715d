package dev.schedpolicy.jenkins;

import edu.umd.cs.findbugs.annotations.CheckForNull;
import java.io.Serial;
import java.io.Serializable;

/**
 * Body context of a {@code withSchedPolicy} block: its merged policy, so a nested block merges on top
 * of it (inner wins per field) instead of stacking a second park-and-release. A block nested in a
 * {@code node {}} on another node merges over the authors' layers alone: the outer node's default is
 * no layer there, that node's own default is its floor.
 */
final class SchedPolicyBlock implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;

    private final String effectivePolicy;
    /** The authors' layers without a node default; null in programs saved before it was recorded. */
    @CheckForNull
    private final String authored;
    /** The node the block started on ("" for the built-in node); null in older programs. */
    @CheckForNull
    private final String node;

    SchedPolicyBlock(final String effectivePolicy, @CheckForNull final String authored, @CheckForNull final String node) {
        this.effectivePolicy = effectivePolicy;
        this.authored = authored;
        this.node = node;
    }

    String effectivePolicy() {
        return effectivePolicy;
    }

    /** The layer a block nested in this one merges over, when it starts on {@code nodeName}. */
    String enclosingOn(final String nodeName) {
        return nodeName.equals(node) || authored == null ? effectivePolicy : authored;
    }

    /** The authors' layers a nested block adds its own to; the merged policy in programs saved before they were recorded. */
    String authoredLayers() {
        return authored == null ? effectivePolicy : authored;
    }
}
