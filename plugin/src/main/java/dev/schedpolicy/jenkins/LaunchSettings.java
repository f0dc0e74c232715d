package dev.schedpolicy.jenkins;

import dev.schedpolicy.engine.agent.AgentLimits;
import edu.umd.cs.findbugs.annotations.CheckForNull;
import java.io.Serial;
import java.io.Serializable;

/**
 * What a {@link PolicedLauncher} needs for each launch: the merged policy (already checked on the
 * agent at block start), the block its launches belong to, and where to record them. A plain class,
 * not a record: it is saved in the Pipeline program (JBoss Marshalling) with the decorator.
 */
final class LaunchSettings implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;

    private final String policy;
    private final String blockKey;
    private final String runId;
    private final AgentLimits limits;
    private final int timeoutSeconds;
    private final String cgroupParent;
    /** Whether each launch is measured (CPU, run-queue wait, neighbours); false in settings saved before it existed. */
    private boolean measure;
    /** The node the launches run on ("" for the built-in node); null in settings saved before it was kept. */
    private String nodeName;

    /**
     * @param policy         merged compact policy
     * @param blockKey       key of the block in the agent's registry and in {@link SchedPolicyAction}
     * @param runId          {@code Run.getExternalizableId()} of the build to record launches in; null for node defaults
     * @param limits         the administrator's limits, checked again by the engine before parking
     * @param timeoutSeconds how long a parked launch may wait for its PID and for its release call
     * @param cgroupParent   where the launch's cgroups go on the agent; null: the agent's own cpu cgroup
     */
    LaunchSettings(final String policy, final String blockKey, @CheckForNull final String runId, final AgentLimits limits,
            final int timeoutSeconds, @CheckForNull final String cgroupParent) {
        this.policy = policy;
        this.blockKey = blockKey;
        this.runId = runId;
        this.limits = limits;
        this.timeoutSeconds = timeoutSeconds;
        this.cgroupParent = cgroupParent;
    }

    String policy() {
        return policy;
    }

    String blockKey() {
        return blockKey;
    }

    @CheckForNull
    String runId() {
        return runId;
    }

    AgentLimits limits() {
        return limits;
    }

    int timeoutSeconds() {
        return timeoutSeconds;
    }

    /** These settings, with every launch measured on node {@code node}. */
    LaunchSettings measured(final boolean on, final String node) {
        LaunchSettings s = new LaunchSettings(policy, blockKey, runId, limits, timeoutSeconds, cgroupParent);
        s.measure = on;
        s.nodeName = node;
        return s;
    }

    boolean measure() {
        return measure;
    }

    @CheckForNull
    String nodeName() {
        return nodeName;
    }

    @CheckForNull
    String cgroupParent() {
        return cgroupParent;
    }
}
