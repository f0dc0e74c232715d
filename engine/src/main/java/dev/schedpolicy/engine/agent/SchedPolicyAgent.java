package dev.schedpolicy.engine.agent;

import dev.schedpolicy.engine.cgroup.CgroupSystem;
import dev.schedpolicy.engine.guard.GuardHomes;
import dev.schedpolicy.engine.launch.LaunchConfig;
import dev.schedpolicy.engine.launch.LaunchDirs;
import dev.schedpolicy.engine.launch.PolicyApplyException;
import dev.schedpolicy.engine.policy.InvalidPolicyException;
import dev.schedpolicy.engine.policy.OnUnsupported;
import dev.schedpolicy.engine.policy.Policy;
import dev.schedpolicy.engine.policy.PolicyFloor;
import dev.schedpolicy.engine.probe.Probe;
import dev.schedpolicy.engine.probe.ProbeReport;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What the Jenkins plugin calls on an agent (through remoting callables, one static method per call),
 * so the plugin itself decides nothing. State between calls lives in one {@link HandshakeRegistry} per
 * agent JVM, created on first use.
 */
public final class SchedPolicyAgent {
    /**
     * The longest a launch may wait for its shim. Jenkins makes durable-task launches on the CPS VM
     * thread, which runs every Pipeline of the controller: a wait there must stay short. A launch that
     * works reaches the shim in milliseconds (docs/launch-overhead.md), so the bound only cuts failures short.
     */
    public static final int MAX_HANDSHAKE_TIMEOUT_SECONDS = 60;

    /** How long a prepared launch may wait for its release call before it is aborted. */
    public static final Duration DEFAULT_PENDING_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration REAP_INTERVAL = Duration.ofSeconds(15);
    private static final Duration TRIAL_TIMEOUT = Duration.ofSeconds(10);

    private static final long PROBE_CACHE_NANOS = TimeUnit.SECONDS.toNanos(60);

    private static HandshakeRegistry registry;
    private static Function<Optional<Path>, ProbeReport> probe = parent -> Probe.system(parent).run();
    private static final Map<Optional<Path>, CachedProbe> PROBES = new HashMap<>();

    private record CachedProbe(ProbeReport report, long at) {
    }

    private SchedPolicyAgent() {
    }

    /** The registry of this JVM, created with {@link LaunchConfig#defaults()} on first use. */
    public static synchronized HandshakeRegistry registry() {
        if (registry == null) {
            registry = new HandshakeRegistry(LaunchConfig.defaults(), Path.of("/proc"), REAP_INTERVAL);
        }
        return registry;
    }

    /**
     * The connection that loaded this copy of the engine is gone (a Jenkins agent that reconnects in the same JVM loads the
     * engine again, with a registry of its own): this copy's registry takes no new launch and lets its reaper end once
     * what it holds has ended; running launches are left alone. See {@link HandshakeRegistry#detach()}.
     */
    public static synchronized void detach() {
        if (registry != null) {
            registry.detach();
        }
    }

    /**
     * Sends home what the guards of an earlier JVM left lowered: an agent JVM killed, or exec'd anew in the same PID by an
     * inbound agent's restarter when its connection dropped (see {@link GuardHomes}). Called as the controller first
     * talks to a connected agent, so nothing stays lowered until the agent's next launch; the launch directories such
     * JVMs left are swept then too. Says what it sent home.
     */
    public static List<String> putBackLowered() {
        LaunchConfig config;
        synchronized (SchedPolicyAgent.class) {
            config = registry == null ? LaunchConfig.defaults() : registry.config();
        }
        LaunchDirs.sweepLeftovers(config);
        GuardHomes homes = GuardHomes.in(config);
        if (!homes.any()) {
            return List.of();
        }
        try {
            return homes.restoreStale(CgroupSystem.detect(), config.proc());
        } catch (RuntimeException e) {
            return List.of("cannot put back what an earlier guard lowered: " + e.getMessage());
        }
    }

    /** Replaces the registry (tests point it at a private state directory); closes the old one. */
    public static synchronized void useRegistry(final HandshakeRegistry value) {
        if (registry != null && registry != value) {
            registry.close();
        }
        registry = value;
    }

    /** Replaces the probe (tests); the cached reports are dropped. */
    public static synchronized void useProbe(final Supplier<ProbeReport> value) {
        probe = parent -> value.get();
        PROBES.clear();
    }

    /**
     * The engine's probe of this machine for groups under {@code cgroupParent}, run at most once a minute
     * per JVM and parent (it starts scratch processes).
     */
    static synchronized ProbeReport probeReport(final Optional<Path> cgroupParent) {
        long now = System.nanoTime();
        CachedProbe c = PROBES.get(cgroupParent);
        if (c == null || now - c.at() > PROBE_CACHE_NANOS) {
            c = new CachedProbe(probe.apply(cgroupParent), now);
            PROBES.put(cgroupParent, c);
        }
        return c.report();
    }

    /**
     * Starts a block: merges the enclosing blocks' policy and this block's request (inner wins per
     * field) over the agent default, which is a floor unless the limits allow authors above it, checks the administrator's limits, asks the engine's probe which parts
     * of the policy this machine cannot apply (and adds its task-group scope warnings), then runs a
     * trivial command through park-and-release under the merged policy, so what fails here would fail
     * every launch.
     *
     * @param request the block: its key (which its launches and {@link #finishBlock} use), its policy, the enclosing
     *                blocks' policy, and the node's default, limits and cgroup parent (see {@link CgroupParents}); its
     *                timeout and command are not used
     */
    public static BlockStart startBlock(final LaunchRequest request) {
        String blockKey = request.blockKey();
        String requested = request.policy();
        AgentLimits limits = request.limits();
        Optional<Path> parent;
        try {
            parent = CgroupParents.parse(request.cgroupParent());
        } catch (IllegalArgumentException e) {
            return new BlockStart(blockKey, requested, requested, List.of(), e.getMessage());
        }
        Policy effective;
        List<String> findings = new ArrayList<>();
        try {
            PolicyFloor.Floored floored = request.floored();
            effective = floored.policy();
            findings.addAll(floored.kept());
            limits.toPolicyLimits().check(effective, Runtime.getRuntime().availableProcessors());
        } catch (InvalidPolicyException e) {
            return new BlockStart(blockKey, requested, requested, List.of(), "policy '" + requested + "' is not allowed here: " + e.getMessage());
        }
        List<String> reach = new ArrayList<>();
        String reachBrief = null;
        String trialFailure = null;
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux")) {
            trialFailure = "scheduling policies need Linux; this agent runs " + System.getProperty("os.name");
        } else if (!effective.isDefault()) {
            ProbeReport report = probeReport(parent);
            List<String> problems = report.problemsFor(effective);
            if (!problems.isEmpty()) {
                trialFailure = String.join("; ", problems);
            } else {
                trialFailure = trialLaunch(effective, request, findings);
            }
            reach.addAll(report.advisoriesFor(effective));
            if (perTaskOnly(effective)) {
                reach.addAll(report.scope().warnings());
            }
            reachBrief = report.reachBrief(effective).orElse(null);
        }
        String compact = effective.toCompact();
        if (trialFailure != null) {
            if (effective.onUnsupported() == OnUnsupported.FAIL) {
                return new BlockStart(blockKey, requested, compact, findings,
                        "policy '" + compact + "' cannot be applied on this agent: " + trialFailure
                                + " (use onUnsupported: 'warn' to run the block anyway)", reach, reachBrief);
            }
            findings.add(0, "policy '" + compact + "' cannot be fully applied on this agent: " + trialFailure);
        }
        return new BlockStart(blockKey, requested, compact, findings, null, reach, reachBrief);
    }

    /** Nice, batch and idle act only within the task group; cgroup controls reach further. */
    private static boolean perTaskOnly(final Policy policy) {
        return !policy.needsCgroup() && (policy.schedClass().isPresent() || policy.nice().isPresent());
    }

    /** Runs ":" under {@code policy}, the block's merged one, with the block's limits and cgroup parent. */
    private static String trialLaunch(final Policy policy, final LaunchRequest block, final List<String> warnings) {
        HandshakeRegistry r = registry();
        String trialKey = block.blockKey() + "#probe";
        try {
            PreparedLaunch prepared = r.prepare(LaunchRequest.of(trialKey, policy.toCompact())
                    .onNode(null, block.limits(), block.cgroupParent()).pendingFor(TRIAL_TIMEOUT));
            Process p;
            try {
                p = new ProcessBuilder(prepared.prefix(List.of("/bin/sh", "-c", ":")))
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                        .redirectError(ProcessBuilder.Redirect.DISCARD)
                        .start();
            } catch (IOException e) {
                r.abort(prepared.id(), "the probe command could not start");
                return "cannot start /bin/sh through the policy shim: " + e.getMessage();
            }
            LaunchRecord record = r.release(prepared.id(), TRIAL_TIMEOUT);
            warnings.addAll(record.warnings());
            if (!p.waitFor(TRIAL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                return "the probe command did not finish within " + TRIAL_TIMEOUT.toSeconds() + " s";
            }
            return p.exitValue() == 0 ? null : "the probe command exited " + p.exitValue();
        } catch (PolicyApplyException | InvalidPolicyException | IllegalStateException e) {
            return e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted while probing";
        } finally {
            r.finishBlock(trialKey);
        }
    }

    /** The handshake timeout an administrator set, checked against {@link #MAX_HANDSHAKE_TIMEOUT_SECONDS}. */
    public static Duration handshakeTimeout(final int seconds) {
        if (seconds < 1 || seconds > MAX_HANDSHAKE_TIMEOUT_SECONDS) {
            throw new IllegalArgumentException("the launch handshake timeout must be 1.." + MAX_HANDSHAKE_TIMEOUT_SECONDS
                    + " seconds (a launch waits on the Pipeline's VM thread), not " + seconds);
        }
        return Duration.ofSeconds(seconds);
    }

    /**
     * Parks one launch of a block; see {@link HandshakeRegistry#prepare}. Its policy is floored here by the default of
     * the node this launch runs on (unless the limits allow authors above it): every launch is floored where it runs,
     * whatever its launcher carries, since a block started on one node also decorates the launches of a {@code node {}}
     * nested in it, which run on another node under that node's floor. Floored fields are named in the launch's warnings.
     */
    public static PreparedLaunch prepare(final LaunchRequest request) {
        return registry().prepare(request);
    }

    /** Releases a parked launch once Jenkins started it; see {@link HandshakeRegistry#release}. */
    public static LaunchRecord release(final String id, final Duration timeout) {
        return registry().release(id, timeout);
    }

    public static void abort(final String id, final String reason) {
        registry().abort(id, reason);
    }

    /**
     * Measures a prepared launch from its release on ({@link HandshakeRegistry#measure}); returns why not, or "".
     *
     * @param label how the launch is named in other launches' figures, e.g. "compile #212 (no policy)"
     */
    public static String measure(final String id, final String label) {
        return registry().measure(id, label);
    }

    /**
     * As {@link #measure(String, String)}, for a launch of {@code owner}: other launches' figures carry it with the label,
     * so a reader's permission can be checked against it (in Jenkins, the job's full name; "" for none).
     */
    public static String measure(final String id, final String label, final String owner) {
        return registry().measure(id, label, owner);
    }

    /**
     * The figures of measured launches: at the end of a build ({@code endRunning}) waiting up to {@code waitSeconds} for
     * their processes to end, as the build goes ({@code !endRunning}) at once, leaving running launches measured.
     */
    public static MeasureCollection collectMeasures(final List<String> ids, final int waitSeconds, final boolean endRunning) {
        return registry().collectMeasures(ids, Duration.ofSeconds(Math.max(0, Math.min(waitSeconds, 60))), endRunning);
    }

    /**
     * Guards a prepared launch from its release on ({@link HandshakeRegistry#guard}); returns why not, or "".
     *
     * @param label how the launch is named, e.g. "tests #88"
     * @param owner whose launch it is (in Jenkins, the job's full name)
     */
    public static String guard(final String id, final String label, final String owner) {
        return registry().guard(id, label, owner);
    }

    /** The guard records of the given launches, waiting up to {@code waitSeconds} (at most 60) for their guards to end. */
    public static List<GuardRecord> collectGuards(final List<String> ids, final int waitSeconds) {
        return registry().collectGuards(ids, Duration.ofSeconds(Math.max(0, Math.min(waitSeconds, 60))));
    }

    /** Ends a block; returns the usage of its cgroups (none when it used no cgroup control). */
    public static UsageRecord finishBlock(final String blockKey) {
        return registry().finishBlock(blockKey);
    }

    /** As {@link #finishBlock(String)}, also ending the block's recorded groups another registry made. */
    public static UsageRecord finishBlock(final String blockKey, final java.util.List<String> recordedGroups) {
        return registry().finishBlock(blockKey, recordedGroups);
    }
}
