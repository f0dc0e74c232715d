package dev.schedpolicy.engine.agent;

import dev.schedpolicy.engine.cgroup.CgroupSystem;
import dev.schedpolicy.engine.container.ContainerAction;
import dev.schedpolicy.engine.buildpage.UnmeasuredLaunches;
import dev.schedpolicy.engine.container.ContainerCommand;
import dev.schedpolicy.engine.container.ContainerExecTasks;
import dev.schedpolicy.engine.container.ContainerLaunch;
import dev.schedpolicy.engine.container.ContainerPlacement;
import dev.schedpolicy.engine.container.ContainerPresence;
import dev.schedpolicy.engine.container.ContainerReadBack;
import dev.schedpolicy.engine.container.ContainerRefusal;
import dev.schedpolicy.engine.container.DaemonVariables;
import dev.schedpolicy.engine.container.DriverQuery;
import dev.schedpolicy.engine.container.PerTaskParts;
import dev.schedpolicy.engine.launch.LaunchConfig;
import dev.schedpolicy.engine.measure.TaskSource;
import dev.schedpolicy.engine.policy.OnUnsupported;
import dev.schedpolicy.engine.policy.Policy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The containers this agent started under a policy, and the launches that start or join one. A {@code run} or
 * {@code create} is rewritten (see {@link ContainerPlacement}) and needs no shim: the client is not the work. An
 * {@code exec} runs as given when it joins a container we started, whose group carries the policy (with a marker its
 * measurement finds its processes by, {@link ContainerExecTasks}); any other exec is
 * refused, because nothing of a launch reaches a process the daemon starts in someone else's container.
 * Containers are found across blocks: docker-workflow's {@code inside} runs its container in the outer block and
 * the body's steps may open inner ones.
 */
final class ContainerBook {
    /** A started container is read back at most this long: the release runs on Jenkins' Pipeline thread. */
    static final Duration READ_BACK_BOUND = Duration.ofSeconds(5);
    /**
     * A container is looked for this long after it started, or after it was last found; then one that has no process
     * here is asked of its daemon, and forgotten only when the daemon says it is gone (a node default's launches belong
     * to no block that ends). An agent that cannot see the container's processes (Docker outside of Docker, a remote
     * DOCKER_HOST) forgot a running one after 2 minutes, refusing every later step inside it.
     */
    static final Duration FORGET_AFTER = Duration.ofMinutes(2);
    private static final Duration ASK_BOUND = Duration.ofSeconds(15);
    private static final AtomicLong SEQUENCE = new AtomicLong();

    private final LaunchConfig config;
    private final Map<String, Pending> pending = new ConcurrentHashMap<>();
    /** Launches whose release waits for their container: an abort ends the wait and the release decides what is left. */
    private final java.util.Set<String> releasing = ConcurrentHashMap.newKeySet();
    private final Map<String, List<Started>> started = new ConcurrentHashMap<>();
    private volatile Placement placement;

    /**
     * @param notHeld what of the policy the container runs without or cannot hold, in words (see {@link LaunchRecord#notHeld})
     * @param token   an exec's marker, which its processes carry ({@link ContainerExecTasks}); null for a start
     */
    private record Pending(String blockKey, Policy policy, ContainerLaunch launch, Started joined, List<String> warnings,
            Map<String, String> clientEnv, List<String> notHeld, String token) {
    }

    /** @param clientEnv the variables that choose the daemon, to ask it whether the container still exists */
    private record Started(ContainerLaunch launch, String policy, long since, Map<String, String> clientEnv) {
        Started seenNow() {
            return new Started(launch, policy, System.nanoTime(), clientEnv);
        }
    }

    private record Placement(CgroupSystem system, ContainerPlacement placement, ContainerReadBack readBack) {
    }

    private final long forgetAfterNanos;

    ContainerBook(final LaunchConfig config) {
        this(config, FORGET_AFTER);
    }

    ContainerBook(final LaunchConfig config, final Duration forgetAfter) {
        this.config = config;
        this.forgetAfterNanos = forgetAfter.toNanos();
    }

    /** Cgroups are detected on the first container launch, so agents that start none never read them. */
    private Placement placement() {
        Placement p = placement;
        if (p == null) {
            CgroupSystem system = CgroupSystem.detect();
            p = new Placement(system, new ContainerPlacement(system, new DriverQuery()), new ContainerReadBack(system, config.proc()));
            placement = p;
        }
        return p;
    }

    /**
     * @param env   the launch's whole environment (the agent's, with the launch's overrides)
     * @param floor the node's floor, which options that let the container leave its group must not break
     * @throws ContainerRefusal saying why the launch must not run and what to use instead
     */
    PreparedLaunch prepare(final ContainerCommand command, final Policy policy, final String blockKey, final Optional<Path> parent,
            final LaunchConfig launchConfig, final Map<String, String> env, final ContainerFloor floor) {
        String id = "ct-" + ProcessHandle.current().pid() + "-" + SEQUENCE.incrementAndGet();
        List<String> notHeld = new ArrayList<>(floor.check(command, policy));
        if (command.action() == ContainerAction.EXEC) {
            Started target = find(command.target()).orElseThrow(() -> new ContainerRefusal(command.describe()
                    + " runs in container " + command.target() + ", which no policed launch on this agent started, so nothing"
                    + " of '" + policy.toCompact() + "' reaches it: the " + command.runtime().program() + " daemon starts the"
                    + " process there, not this launch. Start the container inside the policed block (withSchedPolicy around"
                    + " docker.image(...).inside), or run this step outside the block"));
            List<String> warnings = new ArrayList<>();
            List<String> perTask = PerTaskParts.of(policy);
            // the container's group carries the cgroup equivalents of the policy it was started under: an exec under
            // the same policy (docker-workflow's inside runs its body's steps so) is as placed as the container
            if (!perTask.isEmpty() && !target.policy().equals(policy.toCompact())) {
                String what = "per-task parts of '" + policy.toCompact() + "' cannot reach a process that the "
                        + command.runtime().program() + " daemon starts in a container: " + String.join("; ", perTask);
                if (policy.onUnsupported() == OnUnsupported.FAIL) {
                    throw new ContainerRefusal(what + " (onUnsupported: 'warn' runs it in the container's group anyway)");
                }
                warnings.add(what + "; it runs in the container's group, which carries '" + target.policy() + "'");
                notHeld.add("per-task parts of '" + policy.toCompact() + "' not applied: the exec runs in the container's group,"
                        + " which carries '" + target.policy() + "'");
            }
            // what the container runs without, its exec'd processes run without too
            notHeld.addAll(target.launch().plan().notApplied());
            // the marker is the exec's whether it is measured or not: the command line is set before the measure call
            String token = ContainerExecTasks.newToken();
            pending.put(id, new Pending(blockKey, policy, null, target, warnings, Map.of(), notHeld, token));
            return new PreparedLaunch(id, command.insertAt(), ContainerExecTasks.options(token));
        }
        ContainerLaunch launch = ContainerLaunch.prepare(placement().placement(), command, policy, parent, launchConfig, env);
        notHeld.addAll(launch.plan().notApplied());
        pending.put(id, new Pending(blockKey, policy, launch, null, launch.plan().warnings(), daemonEnv(env), notHeld, null));
        return new PreparedLaunch(id, command.insertAt(), launch.plan().inserted());
    }

    /** The tasks of a container launch to measure, or why it cannot be measured. */
    record Measurable(Optional<TaskSource> tasks, String whyNot) {
    }

    /**
     * How to measure the pending launch {@code id}: an exec into a container of ours by the container's cgroup and the
     * exec's marker ({@link ContainerExecTasks}); a container start is not measured (its client is not the work, and the
     * work of a detached container is the execs' that join it).
     */
    Measurable measurable(final String id) {
        Pending p = pending.get(id);
        if (p == null || p.joined() == null || p.token() == null) {
            return new Measurable(Optional.empty(), UnmeasuredLaunches.CONTAINER_START);
        }
        Optional<String> container = p.joined().launch().id();
        Optional<ContainerReadBack.State> state = container.flatMap(placement().readBack()::find);
        if (state.isEmpty()) {
            return new Measurable(Optional.empty(), "an exec into a container whose processes this agent cannot find is not"
                    + " measured (none in its /proc has the container's id in its cgroup: the agent runs in another PID"
                    + " namespace, as in a container itself, the daemon is on another host, or a rootless runtime gives"
                    + " the container no cgroup of its own)");
        }
        Optional<String> unreadable = ContainerExecTasks.unreadable(config.proc(), state.get().pid());
        if (unreadable.isPresent()) {
            return new Measurable(Optional.empty(), "an exec into a container is not measured here: " + unreadable.get());
        }
        return new Measurable(Optional.of(ContainerExecTasks.of(placement().system(), config.proc(), state.get(), p.token())), "");
    }

    boolean isPending(final String id) {
        return pending.containsKey(id);
    }

    /**
     * Reads back the container the launch made or joined; never fails a launch that made its container. One aborted while
     * its container did not exist yet fails with {@link AbortedLaunchException}: its --cidfile directory is removed, so a
     * client that comes later fails before it creates the container (docker and podman open the file first), and the
     * caller stops the client.
     */
    LaunchRecord release(final String id, final Duration timeout) {
        releasing.add(id);
        try {
            return releaseWaiting(id, timeout);
        } finally {
            releasing.remove(id);
            pending.remove(id);
        }
    }

    private LaunchRecord releaseWaiting(final String id, final Duration timeout) {
        Pending p = pending.get(id);
        if (p == null) {
            throw new IllegalStateException("no container launch '" + id + "' in this JVM");
        }
        Duration bound = timeout.compareTo(READ_BACK_BOUND) < 0 ? timeout : READ_BACK_BOUND;
        ContainerReadBack readBack = placement().readBack();
        if (p.joined() != null) {
            Optional<ContainerReadBack.State> state = p.joined().launch().id().flatMap(readBack::find);
            return record(id, p, p.joined().launch(), state, "exec into container started under '" + p.joined().policy() + "': ");
        }
        Optional<ContainerReadBack.State> state = p.launch().plan().command().action() == ContainerAction.RUN
                ? p.launch().awaitRunning(readBack, bound) : Optional.empty();
        Optional<String> aborted = p.launch().abortReason();
        if (aborted.isPresent() && p.launch().id().isEmpty() && p.launch().plan().command().action() != ContainerAction.BUILD) {
            p.launch().close();
            throw AbortedLaunchException.beforeContainer(aborted.get());
        }
        if (p.launch().plan().command().action() == ContainerAction.BUILD) {
            return record(id, p, p.launch(), state, "");
        }
        // from here on the container exists (or will, for a launch not aborted): it is the business of whoever started it
        started.computeIfAbsent(p.blockKey(), k -> new CopyOnWriteArrayList<>())
                .add(new Started(p.launch(), p.policy().toCompact(), System.nanoTime(), p.clientEnv()));
        return record(id, p, p.launch(), state, "");
    }

    private static LaunchRecord record(final String id, final Pending p, final ContainerLaunch launch,
            final Optional<ContainerReadBack.State> state, final String lead) {
        List<String> mismatches = new ArrayList<>();
        String words;
        if (state.isPresent()) {
            mismatches.addAll(ContainerReadBack.mismatches(state.get(), launch.plan().policy()));
            words = lead + state.get().describe();
        } else {
            String placed = "placed with " + String.join(" ", launch.plan().inserted());
            if (launch.plan().command().action() == ContainerAction.CREATE) {
                words = lead + placed + "; created, not started, so nothing to read back yet";
            } else if (launch.plan().command().action() == ContainerAction.BUILD) {
                words = lead + placed;
                mismatches.add(ContainerPlacement.BUILD_NOT_READ_BACK);
            } else {
                words = lead + placed;
                mismatches.add("no process of the container ran within " + READ_BACK_BOUND.toSeconds() + " s (still pulling its"
                        + " image, or the command failed: its own output says), so its group was not read back");
            }
        }
        String container = launch.id().orElse("(not created yet)");
        String cpuCgroup = state.map(ContainerReadBack.State::cpuCgroup).orElse("unknown");
        String cpus = state.map(ContainerReadBack.State::cpus).orElse("unknown");
        long pid = state.map(ContainerReadBack.State::pid).orElse(0L);
        return new LaunchRecord(id, p.policy().toCompact(), pid, words, "container", 0, "container", cpuCgroup, cpus, mismatches,
                p.warnings(), container, p.notHeld());
    }

    /**
     * A prepared launch that Jenkins could not start, or whose build was stopped: its files go. One whose release waits
     * for its container is told to stop waiting, and the release decides (see {@link #release}).
     */
    void abort(final String id, final String reason) {
        Pending waiting = pending.get(id);
        if (waiting != null && waiting.launch() != null) {
            waiting.launch().abort(reason);
        }
        if (releasing.contains(id)) {
            return;
        }
        Pending p = pending.remove(id);
        if (p != null && p.launch() != null) {
            p.launch().close();
        }
    }

    private Optional<Started> find(final String target) {
        return started.values().stream().flatMap(List::stream).filter(s -> s.launch().isTarget(target)).findFirst();
    }

    /** Forgets the block's containers (the container itself stays the business of whoever started it). */
    void finishBlock(final String blockKey) {
        pending.entrySet().removeIf(e -> {
            boolean ours = e.getValue().blockKey().equals(blockKey);
            if (ours && e.getValue().launch() != null) {
                e.getValue().launch().close();
            }
            return ours;
        });
        List<Started> done = started.remove(blockKey);
        if (done != null) {
            done.forEach(s -> s.launch().close());
        }
    }

    /** The variables that choose the daemon (no others are kept: the environment carries credentials). */
    private static Map<String, String> daemonEnv(final Map<String, String> env) {
        return Map.copyOf(DaemonVariables.of(env));
    }

    /**
     * Forgets containers that are gone: no process of theirs here for a while and their daemon says so (or they were
     * never created). One the daemon cannot be asked about is kept and asked again later.
     */
    void reap() {
        if (placement == null) {
            return;
        }
        long now = System.nanoTime();
        for (List<Started> list : started.values()) {
            for (Started s : list) {
                if (now - s.since() <= forgetAfterNanos) {
                    continue;
                }
                Optional<String> id = s.launch().id();
                if (id.isPresent() && placement().readBack().find(id.get()).isPresent()) {
                    continue;
                }
                ContainerPresence.Answer answer = id.isEmpty() ? ContainerPresence.Answer.GONE
                        : ContainerPresence.ask(s.launch().plan().command(), id.get(), s.clientEnv(), ASK_BOUND);
                if (answer == ContainerPresence.Answer.GONE) {
                    list.remove(s);
                    s.launch().close();
                } else {
                    list.set(list.indexOf(s), s.seenNow());
                }
            }
        }
        started.values().removeIf(List::isEmpty);
    }

    int pendingCount() {
        return pending.size();
    }

    int startedCount() {
        return started.values().stream().mapToInt(List::size).sum();
    }

    void clear() {
        for (String key : List.copyOf(started.keySet())) {
            finishBlock(key);
        }
        for (String id : List.copyOf(pending.keySet())) {
            abort(id, "the agent facade was cleared");
        }
    }
}
