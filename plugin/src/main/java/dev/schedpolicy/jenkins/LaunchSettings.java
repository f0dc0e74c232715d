package dev.schedpolicy.jenkins;

import dev.schedpolicy.engine.agent.AgentLimits;
import dev.schedpolicy.engine.agent.LaunchRequest;
import edu.umd.cs.findbugs.annotations.CheckForNull;
import java.io.Serial;
import java.io.Serializable;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

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
    /** The node these settings are for ("" for the built-in node); null in programs saved before it was recorded. */
    private final String node;
    /** That node's default policy, the floor the engine applies again to every launch there; null for none. */
    private final String agentDefault;
    /** Whether each launch is measured (CPU, run-queue wait, neighbours); false in settings saved before it existed. */
    private boolean measure;
    /** The withSchedGuard block whose launches these are, or null: not guarded (and in settings saved before it existed). */
    private String guardKey;
    /**
     * Whether only a launch a guard rule guards goes through the agent ({@link RuleGuards}): a node without a default
     * or measuring is decorated only for the rule, and its other launches stay as they were. False in older settings.
     */
    private boolean guardedOnly;
    /**
     * What the launch's own blocks ask for, merged without the node's default, compact; null when no block does (a node
     * default's launches) and in older settings. A guarded launch runs under this, not under the default.
     */
    private String authored;

    /**
     * @param policy         merged compact policy
     * @param blockKey       key of the block in the agent's registry and in {@link SchedPolicyAction}
     * @param runId          {@code Run.getExternalizableId()} of the build to record launches in; null for node defaults
     * @param limits         the administrator's limits, checked again by the engine before parking
     * @param timeoutSeconds how long a parked launch may wait for its PID and for its release call
     * @param cgroupParent   where the launch's cgroups go on the agent; null: the agent's own cpu cgroup
     * @param node           the node the launches run on ("" for the built-in node)
     * @param agentDefault   that node's default policy, compact; null for none
     */
    @SuppressWarnings("checkstyle:ParameterNumber")
    LaunchSettings(final String policy, final String blockKey, @CheckForNull final String runId, final AgentLimits limits,
            final int timeoutSeconds, @CheckForNull final String cgroupParent, final String node,
            @CheckForNull final String agentDefault) {
        this.policy = policy;
        this.blockKey = blockKey;
        this.runId = runId;
        this.limits = limits;
        this.timeoutSeconds = timeoutSeconds;
        this.cgroupParent = cgroupParent;
        this.node = node;
        this.agentDefault = agentDefault;
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

    /** These settings, with every launch measured or not. */
    LaunchSettings measured(final boolean on) {
        LaunchSettings s = copy();
        s.measure = on;
        return s;
    }

    /**
     * These settings, with every launch guarded for the withSchedGuard block or stage {@code key} (null: not guarded);
     * a guarded launch always goes through the agent.
     */
    LaunchSettings guarded(@CheckForNull final String key) {
        LaunchSettings s = copy();
        s.guardKey = key;
        s.guardedOnly = s.guardedOnly && key == null;
        return s;
    }

    /** These settings, with what their blocks ask for, without the node's default ({@link #authored}). */
    LaunchSettings authored(@CheckForNull final String compact) {
        LaunchSettings s = copy();
        s.authored = compact;
        return s;
    }

    /** These settings, for a launcher that polices only the launches a guard rule guards. */
    LaunchSettings guardedOnly() {
        LaunchSettings s = copy();
        s.guardedOnly = true;
        return s;
    }

    /** Whether a launch these settings do not guard goes to the inner launcher as it is. */
    boolean passesUnguarded() {
        return guardedOnly && guardKey == null;
    }

    private LaunchSettings copy() {
        LaunchSettings s = new LaunchSettings(policy, blockKey, runId, limits, timeoutSeconds, cgroupParent, node, agentDefault);
        s.measure = measure;
        s.guardKey = guardKey;
        s.guardedOnly = guardedOnly;
        s.authored = authored;
        return s;
    }

    @CheckForNull
    String guardKey() {
        return guardKey;
    }

    boolean measure() {
        return measure;
    }

    @CheckForNull
    String cgroupParent() {
        return cgroupParent;
    }

    /** The node these settings are for; null in settings saved before it was recorded. */
    @CheckForNull
    String node() {
        return node;
    }

    @CheckForNull
    String agentDefault() {
        return agentDefault;
    }

    /**
     * The engine's request for one launch of {@code command} under these settings.
     *
     * @param envOverrides the launch's "KEY=VALUE" environment (DOCKER_HOST reaches the daemon the engine asks); may be null
     */
    LaunchRequest request(final List<String> command, @CheckForNull final String[] envOverrides) {
        // a guarded launch asks for its blocks' own policy; the engine decides that the default is no floor for it
        LaunchRequest r = LaunchRequest.of(blockKey, guardKey == null ? policy : authored).onNode(agentDefault, limits, cgroupParent)
                .pendingFor(Duration.ofSeconds(timeoutSeconds))
                .forCommand(command, LaunchRequest.keyValues(envOverrides == null ? List.of() : Arrays.asList(envOverrides)));
        return guardKey == null ? r : r.guardedStep();
    }
}
