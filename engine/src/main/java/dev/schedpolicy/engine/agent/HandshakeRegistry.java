package dev.schedpolicy.engine.agent;

import dev.schedpolicy.engine.cgroup.CgroupSystem;
import dev.schedpolicy.engine.container.ContainerCommand;
import dev.schedpolicy.engine.container.ContainerRefusal;
import dev.schedpolicy.engine.guard.GuardHomes;
import dev.schedpolicy.engine.guard.GuardSettings;
import dev.schedpolicy.engine.launch.CgroupGroupProvider;
import dev.schedpolicy.engine.launch.CpuGroupProvider;
import dev.schedpolicy.engine.launch.Handshake;
import dev.schedpolicy.engine.launch.LaunchAbortedException;
import dev.schedpolicy.engine.launch.LaunchConfig;
import dev.schedpolicy.engine.launch.ParkAndRelease;
import dev.schedpolicy.engine.launch.PolicedLaunch;
import dev.schedpolicy.engine.policy.Policy;
import dev.schedpolicy.engine.policy.PolicyFloor;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Parked launches between the two remoting calls that make one Jenkins launch (prepare, then release
 * after Jenkins started the prefixed command), and released launches whose cgroups must outlive the
 * launch call. One instance per agent JVM (see {@link SchedPolicyAgent}); keyed by the handshake id.
 *
 * <p>A prepared launch that is neither released nor aborted within {@code pendingTimeout} (the
 * controller died, or the launch failed before it could abort) is aborted here: the shim, if it ever
 * started, exits 125 without running the command, and the handshake files are removed. Released
 * launches with a cgroup stay until their block finishes, or, for launches outside any block, until
 * the reaper finds their group empty.
 */
public final class HandshakeRegistry implements AutoCloseable {
    private static final int MAX_FINISHED_BLOCKS = 1000;
    private static final long GUARD_TICK_MILLIS = 100;

    private final LaunchConfig config;
    private final GroupOccupancy occupancy;
    private final ScheduledExecutorService timer;
    private volatile boolean detached;
    private volatile long detachedAt;
    /** How long a detached registry still answers the container client wrappers of steps that run on after a reconnect. */
    private static final Duration CLIENTS_AFTER_DETACH = Duration.ofHours(1);
    private final Map<String, Pending> pending = new ConcurrentHashMap<>();
    private final Map<String, List<Live>> live = new ConcurrentHashMap<>();
    /**
     * Groups a block's end could not remove (a process that outlived its SIGKILL for a while, in uninterruptible
     * sleep on a loaded machine): the reaper removes each once it is empty. Their maker (this JVM) lives on, so the
     * sweep of dead makers' groups never would. Bounded: past it the oldest is dropped, and left to this JVM's end.
     */
    private final Deque<BooleanSupplier> closing = new ConcurrentLinkedDeque<>();
    private static final int MAX_CLOSING = 1000;
    private final Map<String, UsageRecord> reaped = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(final Map.Entry<String, UsageRecord> eldest) {
            return size() > MAX_FINISHED_BLOCKS;
        }
    };

    private record Pending(Handshake handshake, String blockKey, String policy, ScheduledFuture<?> expiry, List<String> notes) {
    }

    private record Live(String id, PolicedLaunch launch) {
    }

    /**
     * @param config       launch configuration (kernel, state directory, cgroups, handshake timeout)
     * @param procRoot     /proc, to find empty cgroups
     * @param reapInterval how often released launches outside blocks are checked for an empty cgroup
     */
    private final Map<Path, CpuGroupProvider> groupsUnder = new ConcurrentHashMap<>();
    private final ContainerBook containers;
    private final ClientPlacements clients;
    private final LaunchMeasures measures = new LaunchMeasures(dev.schedpolicy.engine.measure.MeasureBook.system());
    private final GuardedLaunches guards;

    public HandshakeRegistry(final LaunchConfig config, final Path procRoot, final Duration reapInterval) {
        this.config = config;
        this.occupancy = new GroupOccupancy(procRoot);
        this.containers = new ContainerBook(config);
        this.clients = new ClientPlacements(config);
        this.guards = new GuardedLaunches(config, GuardSettings.defaults());
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "schedpolicy-registry");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleWithFixedDelay(surviving("removing empty launch groups", this::reapEmptyGroups),
                reapInterval.toMillis(), reapInterval.toMillis(), TimeUnit.MILLISECONDS);
        // a guard ends within a tick of its launch's last process, so what it lowered is back within about 100 ms
        timer.scheduleWithFixedDelay(surviving("ending guards", guards::tick), GUARD_TICK_MILLIS, GUARD_TICK_MILLIS,
                TimeUnit.MILLISECONDS);
        // an agent killed while its guards had builds lowered: what they wrote down goes home now, not at the next guard
        GuardHomes homes = GuardHomes.in(config);
        if (homes.any()) {
            timer.execute(surviving("putting back what a killed guard lowered",
                    () -> homes.restoreStale(CgroupSystem.detect(), config.proc())));
        }
        // a stopped step's foreground container ends within about a second of its client
        timer.scheduleWithFixedDelay(surviving("ending orphaned containers", clients::endOrphans), 1, 1, TimeUnit.SECONDS);
    }

    /**
     * A periodic task that outlives a failure of one run: an executor cancels every later run of a task that threw, so
     * one unexpected error would have stopped the guards' ends (leaving other builds lowered) or the group reaper for
     * good. Each task's first failure goes to the agent's log (its standard error).
     */
    private static Runnable surviving(final String what, final Runnable task) {
        boolean[] told = new boolean[1];
        return () -> {
            try {
                task.run();
            } catch (RuntimeException e) {
                if (!told[0]) {
                    told[0] = true;
                    System.err.println("[schedpolicy] " + what + " failed once and goes on: " + e);
                }
            }
        };
    }

    public LaunchConfig config() {
        return config;
    }

    /**
     * Prepares one launch under the request's policy, floored by its node's default ({@link LaunchRequest#floored()};
     * what the floor kept is put first in the launch's warnings). For the command the request names, a container start
     * ({@code docker|podman run|create}) is placed under the policy's cgroup parts by the runtime's own options, and a
     * container whose options would leave the node's floor is refused unless the limits allow raising priorities (see
     * {@link ContainerFloor}); an exec into a container this registry started runs as given; every other command (and a
     * request without one) is parked: the caller must start {@link PreparedLaunch#command(List)} and then call
     * {@link #release} or {@link #abort} with its id. Its cgroups go under the request's cgroup parent (blank: this
     * registry's default, the agent's own cpu cgroup); a launch not released within the request's pending timeout is
     * aborted and forgotten. See {@link ContainerBook}.
     *
     * @throws dev.schedpolicy.engine.container.ContainerRefusal when the command must not run, saying why and what to use
     */
    public PreparedLaunch prepare(final LaunchRequest request) {
        PolicyFloor.Floored floored = request.floored();
        Policy policy = floored.policy();
        Optional<Path> cgroupParent = CgroupParents.parse(request.cgroupParent());
        Duration pendingTimeout = request.pendingTimeout();
        List<String> argv = request.argv();
        if (argv.isEmpty()) {
            return parked(request, policy, cgroupParent, floored.kept());
        }
        Optional<String> unchecked = ContainerLaunches.refusal(argv);
        if (unchecked.isPresent()) {
            throw new ContainerRefusal(unchecked.get());
        }
        ContainerCommand.Parsed parsed = ContainerCommand.parse(argv);
        if (parsed instanceof ContainerCommand.Container c) {
            if (policy.isDefault()) {
                return parked(request, policy, cgroupParent, List.of());
            }
            PreparedLaunch prepared = containers.prepare(c.command(), policy, request.blockKey(), cgroupParent,
                    config.withLimits(request.limits().toPolicyLimits()), request.environment(),
                    ContainerFloor.of(request.agentDefault(), request.limits()));
            timer.schedule(() -> containers.abort(prepared.id(), "not released within " + pendingTimeout.toMillis() + " ms of being"
                    + " prepared"), pendingTimeout.toMillis(), TimeUnit.MILLISECONDS);
            return prepared.under(policy.toCompact());
        }
        if (parsed instanceof ContainerCommand.Unreadable u && !policy.isDefault()) {
            // even under warn: run as it is, a container it starts would escape the policy's group and the floor's
            throw new ContainerRefusal(u.reason() + "; only the client would be policed, and a container it starts would run"
                    + " outside the policy");
        }
        return parked(request, policy, cgroupParent, floored.kept());
    }

    private PreparedLaunch parked(final LaunchRequest request, final Policy policy, final Optional<Path> cgroupParent,
            final List<String> notes) {
        PreparedLaunch prepared = prepareParked(policy, parkedConfig(request.limits(), cgroupParent), request.blockKey(),
                request.pendingTimeout(), notes).under(policy.toCompact());
        if (request.argv().isEmpty()) {
            return prepared;
        }
        Optional<String> wrappers = clients.binFor(policy, cgroupParent, request);
        return wrappers.isPresent() ? prepared.withClientWrappers(wrappers.get()) : prepared;
    }

    /** The launch configuration under the administrator's limits, with per-launch groups under {@code cgroupParent}. */
    private LaunchConfig parkedConfig(final AgentLimits limits, final Optional<Path> cgroupParent) {
        LaunchConfig launchConfig = config.withLimits(limits.toPolicyLimits());
        if (cgroupParent.isPresent()) {
            launchConfig = launchConfig.withGroups(groupsUnder.computeIfAbsent(cgroupParent.get(),
                    parent -> new CgroupGroupProvider(CgroupSystem.detect(), Optional.of(parent))));
        }
        return launchConfig;
    }

    /** @param notes the engine's own warnings about the launch, put before the launch's in its record */
    private PreparedLaunch prepareParked(final Policy policy, final LaunchConfig launchConfig, final String blockKey,
            final Duration pendingTimeout, final List<String> notes) {
        Handshake h = ParkAndRelease.prepare(policy, launchConfig);
        String id = h.id();
        ScheduledFuture<?> expiry = timer.schedule(
                () -> abort(id, "not released within " + pendingTimeout.toMillis() + " ms of being prepared"),
                pendingTimeout.toMillis(), TimeUnit.MILLISECONDS);
        pending.put(id, new Pending(h, blockKey, policy.toCompact(), expiry, notes));
        return new PreparedLaunch(id, h.commandPrefix());
    }

    /**
     * Waits for the parked command's PID, applies and verifies the policy, and lets the command run.
     *
     * @throws IllegalStateException when no such launch is pending (timed out, aborted, or another JVM)
     * @throws AbortedLaunchException when {@link #abort} was called while the release waited: the command never runs
     * @throws dev.schedpolicy.engine.launch.PolicyApplyException when the policy could not be applied
     *         under on-unsupported=fail, or the command never reached the shim
     */
    public LaunchRecord release(final String id, final Duration timeout) {
        if (containers.isPending(id)) {
            return containers.release(id, timeout);
        }
        Pending p = pending.get(id);
        if (p == null) {
            throw new IllegalStateException("no parked launch '" + id + "' in this JVM: it was aborted, timed out before"
                    + " release, or was prepared by another agent process");
        }
        p.expiry().cancel(false);
        PolicedLaunch launch;
        try {
            // pending while it waits for the shim: an abort (the build was stopped) finds it and ends the wait
            launch = p.handshake().release(timeout, pid -> measures.attach(id, pid));
        } catch (LaunchAbortedException e) {
            measures.drop(id);
            guards.dropped(id);
            throw new AbortedLaunchException(e.getMessage(), e);
        } catch (RuntimeException e) {
            measures.drop(id);
            guards.dropped(id);
            throw e;
        } finally {
            pending.remove(id, p);
        }
        if (launch.cgroupPath().isPresent() && hasQuota(p.policy())) {
            measures.throttledBy(id, launch::throttledNanos);
        }
        LaunchRecord record = LaunchRecord.of(id, p.policy(), launch, p.notes());
        guards.released(id, launch.pid(), p.blockKey());
        if (launch.cgroupPath().isPresent()) {
            live.computeIfAbsent(p.blockKey(), k -> new CopyOnWriteArrayList<>()).add(new Live(id, launch));
        } else {
            launch.close();
        }
        return record;
    }

    private static boolean hasQuota(final String compactPolicy) {
        try {
            return !compactPolicy.isBlank() && Policy.parse(compactPolicy).cpuQuotaPercent().isPresent();
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** Tells a parked shim to exit 125 without running its command; no-op for unknown ids. */
    public void abort(final String id, final String reason) {
        measures.drop(id);
        guards.dropped(id);
        containers.abort(id, reason);
        Pending p = pending.remove(id);
        if (p != null) {
            p.expiry().cancel(false);
            p.handshake().abort(reason);
        }
    }

    /**
     * Ends a block: aborts its unreleased launches, reads its cgroups' usage, then removes them (killing
     * what is left inside, like Jenkins' own process-tree killer at the end of a step).
     */
    public UsageRecord finishBlock(final String blockKey) {
        guards.finishBlock(blockKey);
        for (Map.Entry<String, Pending> e : List.copyOf(pending.entrySet())) {
            if (e.getValue().blockKey().equals(blockKey)) {
                abort(e.getKey(), "the block ended before the launch was released");
            }
        }
        containers.finishBlock(blockKey);
        UsageRecord total;
        synchronized (reaped) {
            total = reaped.getOrDefault(blockKey, UsageRecord.NONE);
            reaped.remove(blockKey);
        }
        List<Live> launches = live.remove(blockKey);
        if (launches != null) {
            for (Live l : launches) {
                total = total.plus(closeAndMeasure(l.launch()));
            }
        }
        return total;
    }

    /**
     * Ends a block whose launches another registry may have made: a Jenkins agent whose connection dropped mid-block
     * (its engine classes, and so this registry, come again with the new connection), an agent JVM or a controller
     * killed and started again. The groups the build recorded for the block and this registry does not hold are
     * measured, emptied and removed as its own are; without this they stayed until the agent JVM ended.
     *
     * A group this registry holds is never taken so: the block's own are ended above, and one it holds for another
     * block is that block's, whatever the ending block's record lists. Names are never given twice (see the cgroup
     * package's group names), so a recorded group another registry made is one the block's own launches ran in.
     *
     * @param recordedGroups the block's groups as /proc showed them (the build's launch records); others are ignored
     */
    public UsageRecord finishBlock(final String blockKey, final List<String> recordedGroups) {
        List<String> held = live.values().stream().flatMap(List::stream)
                .map(l -> l.launch().cgroupPath().orElse("")).toList();
        UsageRecord total = finishBlock(blockKey);
        for (String path : recordedGroups.stream().distinct().toList()) {
            if (!held.contains(path)) {
                total = total.plus(AdoptedGroup.end(path, this::stillBusy));
            }
        }
        return total;
    }

    /** Parked launches not yet released or aborted. */
    public int pendingCount() {
        return pending.size() + containers.pendingCount();
    }

    /** Containers started under a policy that execs may still join. */
    public int containerCount() {
        return containers.startedCount();
    }

    /** Released launches whose cgroup is still held. */
    public int liveCount() {
        return live.values().stream().mapToInt(List::size).sum();
    }

    /** Removes the cgroups of released launches that nothing runs in any more; their usage is kept per block. */
    public void reapEmptyGroups() {
        try {
            reapEmptyGroupsNow();
        } catch (LinkageError e) {
            // a detached copy of the engine whose classes came over a connection that is gone cannot load the ones it has
            // not used yet: it stops here (a block's groups end with the block through the next connection's registry)
            if (!detached) {
                throw e;
            }
            timer.shutdown();
        } finally {
            endTimerWhenDrained();
        }
    }

    private void reapEmptyGroupsNow() {
        clients.sweep();
        containers.reap();
        closing.removeIf(BooleanSupplier::getAsBoolean);
        for (Map.Entry<String, List<Live>> e : live.entrySet()) {
            List<Live> done = new ArrayList<>();
            for (Live l : e.getValue()) {
                String path = l.launch().cgroupPath().orElse(null);
                // a launch group a guard has emptied for a while (its processes lowered) is not done: they go back there
                if (path != null && !occupancy.occupied(path) && !guards.holdsHomeIn(path)) {
                    done.add(l);
                }
            }
            UsageRecord sum = UsageRecord.NONE;
            boolean any = false;
            for (Live l : done) {
                // read before the group goes; the rmdir kills nothing, so a process a guard put back after the look
                // above (the look takes a while on a machine with many processes) keeps its group for the next round
                Optional<UsageRecord> usage = l.launch().cgroupUsage().map(UsageRecord::of);
                if (l.launch().closeIfEmpty()) {
                    e.getValue().remove(l);
                    sum = sum.plus(usage.orElse(new UsageRecord(1, 0, 0, 0, 0)));
                    any = true;
                }
            }
            if (any) {
                synchronized (reaped) {
                    reaped.merge(e.getKey(), sum, UsageRecord::plus);
                }
            }
        }
        live.values().removeIf(List::isEmpty);
    }

    /** The launch's usage, its group emptied and removed; one that stays busy is left to the reaper (see closing). */
    private UsageRecord closeAndMeasure(final PolicedLaunch launch) {
        UsageRecord usage = launch.cgroupUsage().map(UsageRecord::of).orElse(new UsageRecord(1, 0, 0, 0, 0));
        try {
            launch.close();
        } catch (RuntimeException e) {
            stillBusy(launch::closeIfEmpty);
        }
        return usage;
    }

    private void stillBusy(final BooleanSupplier removeIfEmpty) {
        closing.addLast(removeIfEmpty);
        while (closing.size() > MAX_CLOSING) {
            closing.pollFirst();
        }
    }

    /**
     * Measures the prepared launch {@code id} (its CPU, run-queue wait and neighbours) from its release until all its
     * processes have exited; {@code label} is how other launches' figures name it. An exec into a container of ours is
     * measured through the container's cgroup ({@link dev.schedpolicy.engine.container.ContainerExecTasks}); a container
     * start, or an exec where the agent cannot see the container's processes, is not: the answer says why, else it is
     * empty.
     */
    public String measure(final String id, final String label) {
        return measure(id, label, "");
    }

    /** As {@link #measure(String, String)}, for a launch of {@code owner} (whose neighbours' figures carry it, "" for none). */
    public String measure(final String id, final String label, final String owner) {
        if (containers.isPending(id)) {
            ContainerBook.Measurable m = containers.measurable(id);
            if (m.tasks().isEmpty()) {
                return m.whyNot();
            }
            measures.open(id, label, owner, m.tasks().get());
            return "";
        }
        Pending p = pending.get(id);
        if (p == null) {
            return "no parked launch '" + id + "' to measure";
        }
        boolean placed;
        try {
            placed = !p.policy().isBlank() && Policy.parse(p.policy()).needsCgroup();
        } catch (RuntimeException e) {
            placed = false;
        }
        measures.open(id, label, owner, placed);
        guards.name(id, label, owner);
        return "";
    }

    /**
     * Guards the prepared launch {@code id} from its release until its processes have all ended (or its block ends): while
     * it waits for a CPU, the busy processes of this registry's other, unguarded launches are lowered, never anything
     * else, and put back after (see {@link GuardedLaunches}). The launch itself keeps its policy. {@code label} and
     * {@code owner} name it as {@link #measure(String, String, String)} does. Returns why not, or "".
     */
    public String guard(final String id, final String label, final String owner) {
        if (containers.isPending(id)) {
            return "a container launch is not guarded: its processes are the container runtime's children";
        }
        if (!pending.containsKey(id)) {
            return "no parked launch '" + id + "' to guard";
        }
        guards.name(id, label, owner);
        guards.request(id);
        return "";
    }

    /**
     * The guard records of the given launches (those that were guarded), each handed out once: waits up to {@code wait}
     * for their processes to end, then ends the guards still running, so everything they lowered is back.
     */
    public List<GuardRecord> collectGuards(final List<String> ids, final Duration wait) {
        return guards.collect(ids, wait);
    }

    /** The figures of measured launches; see {@link LaunchMeasures#collect}. */
    public MeasureCollection collectMeasures(final List<String> ids, final Duration wait, final boolean endRunning) {
        return measures.collect(ids, wait, endRunning);
    }

    /**
     * The connection that loaded this copy of the engine is gone, so nothing new comes here: what still runs keeps its
     * group (a block open across a reconnect ends through the next connection's registry, which ends the groups its
     * build recorded), the reaper goes on removing groups as they empty, and once this registry holds nothing its timer
     * ends, the last thread that kept this copy of the engine's classes in the agent JVM.
     */
    public void detach() {
        detachedAt = System.nanoTime();
        detached = true;
        try {
            timer.execute(this::endTimerWhenDrained);
        } catch (RejectedExecutionException e) {
            // closed already: its timer has ended
        }
    }

    private void endTimerWhenDrained() {
        if (detached && pending.isEmpty() && live.isEmpty() && containers.pendingCount() == 0 && containers.startedCount() == 0
                && guards.isEmpty() && closing.isEmpty() && clients.quietFor(CLIENTS_AFTER_DETACH, detachedAt)) {
            clients.close();
            measures.close();
            timer.shutdown();
        }
    }

    /** Aborts every pending launch and removes every held cgroup; the registry stays usable. */
    public void clear() {
        guards.close();
        containers.clear();
        for (String id : List.copyOf(pending.keySet())) {
            abort(id, "the agent facade was cleared");
        }
        for (Iterator<String> it = live.keySet().iterator(); it.hasNext();) {
            finishBlock(it.next());
        }
    }

    @Override
    public void close() {
        clear();
        clients.close();
        measures.close();
        timer.shutdownNow();
    }
}
