package dev.schedpolicy.engine.agent;

import dev.schedpolicy.engine.policy.PolicyFloor;

import java.io.Serial;
import java.io.Serializable;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What the controller asks of an agent for a block's start ({@link SchedPolicyAgent#startBlock}) or for one launch of it
 * ({@link SchedPolicyAgent#prepare}, {@link HandshakeRegistry#prepare}). It is built where the remoting call is made and
 * crosses remoting as one object, so a new field is one component here rather than one more overload at every layer.
 * Its policy layers are merged and floored in one place, {@link #floored()}.
 *
 * @param blockKey       the block's key in the agent's registry; its launches and the block's end use it
 * @param policy         the block's policy, or the launch's merged one, compact; blank: no change
 * @param enclosing      the merged policy of the enclosing blocks, compact; blank for a launch (its policy is merged)
 * @param agentDefault   the default policy of the node it runs on, a floor unless the limits allow authors above it;
 *                       blank: none
 * @param limits         the administrator's limits
 * @param cgroupParent   where its cgroups go (see {@link CgroupParents}); blank: the agent's own cpu cgroup
 * @param pendingTimeout how long a prepared launch may wait for its release before it is aborted
 * @param argv           the command line a launcher is about to start; empty: a command of the engine's own, parked as
 *                       it is without a look at containers
 * @param envOverrides   the launch's environment as overrides of the agent JVM's own (a container client's DOCKER_HOST)
 * @param guarded        a launch of a step an administrator lets guard: the node's default is no floor for it, its own
 *                       policy never runs above normal ({@link PolicyForms#guarded})
 */
public record LaunchRequest(String blockKey, String policy, String enclosing, String agentDefault, AgentLimits limits,
        String cgroupParent, Duration pendingTimeout, List<String> argv, Map<String, String> envOverrides, boolean guarded)
        implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;

    public LaunchRequest {
        if (blockKey == null || blockKey.isBlank()) {
            throw new IllegalArgumentException("a launch request needs the key of its block (a non-blank string), got '"
                    + blockKey + "'");
        }
        Objects.requireNonNull(limits, "a launch request needs the administrator's limits (AgentLimits.DEFAULT for none)");
        if (pendingTimeout == null || pendingTimeout.isNegative() || pendingTimeout.isZero()) {
            throw new IllegalArgumentException("a launch's pending timeout must be a positive duration, not " + pendingTimeout);
        }
        argv = List.copyOf(argv == null ? List.of() : argv);
        envOverrides = Map.copyOf(envOverrides == null ? Map.of() : envOverrides);
    }

    /**
     * The request for {@code policy} in block {@code blockKey}, with no enclosing block, node default or cgroup parent, the
     * default limits, {@link SchedPolicyAgent#DEFAULT_PENDING_TIMEOUT} and no command.
     */
    public static LaunchRequest of(final String blockKey, final String policy) {
        return new LaunchRequest(blockKey, policy, null, null, AgentLimits.DEFAULT, null, SchedPolicyAgent.DEFAULT_PENDING_TIMEOUT,
                List.of(), Map.of(), false);
    }

    /** This request inside blocks whose merged policy is {@code merged} (compact, may be blank). */
    public LaunchRequest inside(final String merged) {
        return new LaunchRequest(blockKey, policy, merged, agentDefault, limits, cgroupParent, pendingTimeout, argv, envOverrides, guarded);
    }

    /** This request on a node with default policy {@code nodeDefault}, the administrator's {@code nodeLimits} and cgroup parent. */
    public LaunchRequest onNode(final String nodeDefault, final AgentLimits nodeLimits, final String parent) {
        return new LaunchRequest(blockKey, policy, enclosing, nodeDefault, nodeLimits, parent, pendingTimeout, argv, envOverrides, guarded);
    }

    /** This request, with a prepared launch aborted when not released within {@code timeout}. */
    public LaunchRequest pendingFor(final Duration timeout) {
        return new LaunchRequest(blockKey, policy, enclosing, agentDefault, limits, cgroupParent, timeout, argv, envOverrides, guarded);
    }

    /** This request for the command {@code command}, run with the JVM's environment overridden by {@code overrides}. */
    public LaunchRequest forCommand(final List<String> command, final Map<String, String> overrides) {
        return new LaunchRequest(blockKey, policy, enclosing, agentDefault, limits, cgroupParent, pendingTimeout, command, overrides, guarded);
    }

    /**
     * This request for a launch of a guarded step that an administrator allowed (the controller decided): {@link #policy} is
     * then what its authors asked for (blank: nothing), without the node's default.
     */
    public LaunchRequest guardedStep() {
        return new LaunchRequest(blockKey, policy, enclosing, agentDefault, limits, cgroupParent, pendingTimeout, argv, envOverrides,
                true);
    }

    /** Overrides given as a launcher holds them, "KEY=VALUE" (Launcher.ProcStarter#envs); entries without a key are skipped. */
    public static Map<String, String> keyValues(final List<String> keyValues) {
        Map<String, String> env = new LinkedHashMap<>();
        for (String kv : keyValues == null ? List.<String>of() : keyValues) {
            int eq = kv == null ? -1 : kv.indexOf('=');
            if (eq > 0) {
                env.put(kv.substring(0, eq), kv.substring(eq + 1));
            }
        }
        return env;
    }

    /** The environment the command runs with: this JVM's, with the overrides. */
    public Map<String, String> environment() {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.putAll(envOverrides);
        return env;
    }

    /**
     * The policy this request runs under: the node's default, the enclosing blocks and this policy merged (inner wins per
     * field), the default staying a floor unless the limits allow authors above it; what the floor kept is named. A
     * guarded step's launch: its own layers only, never above normal.
     */
    public PolicyFloor.Floored floored() {
        if (guarded) {
            return PolicyForms.guarded(enclosing, policy);
        }
        return PolicyForms.mergeOverDefault(agentDefault, enclosing, policy, limits);
    }
}
