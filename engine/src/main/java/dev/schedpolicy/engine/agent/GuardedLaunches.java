package dev.schedpolicy.engine.agent;

import dev.schedpolicy.engine.guard.GuardHomes;
import dev.schedpolicy.engine.guard.GuardLoop;
import dev.schedpolicy.engine.guard.GuardReport;
import dev.schedpolicy.engine.guard.GuardSettings;
import dev.schedpolicy.engine.guard.ListedCompetitors;
import dev.schedpolicy.engine.guard.Lowerings;
import dev.schedpolicy.engine.launch.LaunchConfig;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * The guard on an agent: a launch marked guarded before its release gets a {@link GuardLoop} on its processes from the
 * release until they have all ended (or its block ends); its competitors are only the processes of this registry's
 * other launches that are not guarded themselves, never a process the agent did not launch. Each guard ends with
 * everything it lowered put back, and its report waits here, as the launch's {@link GuardRecord}, until the
 * controller collects it.
 */
final class GuardedLaunches implements AutoCloseable {
    private static final int MAX_KEPT = 1000;
    private static final long PRUNE_NANOS = TimeUnit.SECONDS.toNanos(5);
    /** How long a collect waits past its own wait for a guard another thread is ending (its loop joins within 5 s). */
    private static final long ENDING_BOUND_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final LaunchConfig config;
    private final GuardSettings settings;
    private final LaunchTrees trees;
    /** Launch id to its owner (the job, in Jenkins) and label, when the controller named it. */
    private final Map<String, String[]> names = new ConcurrentHashMap<>();
    private final Set<String> requested = ConcurrentHashMap.newKeySet();
    private final Map<String, Running> running = new ConcurrentHashMap<>();
    /** Guards taken out of {@link #running} whose record is not kept yet: a collect waits for them too. */
    private final Set<String> ending = new HashSet<>();
    private final Map<String, GuardRecord> ended = new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(final Map.Entry<String, GuardRecord> eldest) {
            return size() > MAX_KEPT;
        }
    };
    private long lastPrune = System.nanoTime();

    /** One guarded launch while it runs; {@code seen} remembers which launch each competitor belonged to. */
    private record Running(String blockKey, GuardLoop loop, Map<Long, String> seen) {
    }

    GuardedLaunches(final LaunchConfig config, final GuardSettings settings) {
        this.config = config;
        this.settings = settings;
        this.trees = new LaunchTrees(config.proc());
    }

    /** The controller's names for a launch: whose it is ({@code owner}, "" for none) and how it is called. */
    void name(final String id, final String label, final String owner) {
        names.put(id, new String[] {owner == null ? "" : owner, label == null ? "" : label});
    }

    /** Launch {@code id}, still to be released, is guarded from its release on. */
    void request(final String id) {
        requested.add(id);
    }

    /** A launch was released: it is one the guards may lower, or, when requested, one to guard. */
    void released(final String id, final long pid, final String blockKey) {
        trees.add(id, pid);
        if (requested.remove(id)) {
            start(id, blockKey);
        }
    }

    /** The launch never ran. */
    void dropped(final String id) {
        requested.remove(id);
        names.remove(id);
    }

    private void start(final String id, final String blockKey) {
        Lowerings lowerings = Lowerings.available(config.kernel(), config.proc(), GuardHomes.in(config));
        if (lowerings.none()) {
            keep(id, new GuardRecord(id, new GuardReport(0, 0, 0, 0, 0, 0, -1, List.of(),
                    List.of("nothing on this agent can lower other processes (" + String.join("; ", lowerings.missing())
                            + "): the step ran unguarded"), true), Map.of(), Map.of(), Map.of()));
            return;
        }
        Map<Long, String> seen = new ConcurrentHashMap<>();
        ListedCompetitors competitors = new ListedCompetitors(config.proc(), () -> {
            Map<Long, String> others = trees.processesOfAllBut(guardedIds());
            seen.putAll(others);
            return others.keySet();
        }, settings.busyShare());
        GuardLoop loop = new GuardLoop(config.proc(), () -> trees.processes(id), id, competitors, lowerings.lowerings(),
                settings, Set.of(ProcessHandle.current().pid()));
        running.put(id, new Running(blockKey, loop, seen));
        loop.start();
    }

    private Set<String> guardedIds() {
        Set<String> ids = new HashSet<>(running.keySet());
        ids.addAll(requested);
        return ids;
    }

    /** Ends the guards whose launch has no process left; now and then forgets ended launches. Called every 100 ms. */
    void tick() {
        for (Map.Entry<String, Running> e : running.entrySet()) {
            // the guard's own period reads the launch's processes: the full look (which may rescan /proc) only then
            if (e.getValue().loop().sawNoProcess() && trees.ended(e.getKey())) {
                end(e.getKey());
            }
        }
        if (System.nanoTime() - lastPrune > PRUNE_NANOS) {
            lastPrune = System.nanoTime();
            trees.prune();
            names.keySet().removeIf(id -> !trees.contains(id) && !requested.contains(id) && !running.containsKey(id));
        }
    }

    /** The block ended: so do its guards. */
    void finishBlock(final String blockKey) {
        // no lambda: this runs at every block's end, also on a thread a stop has interrupted, where the agent's first
        // bootstrap of a lambda loads its classes over remoting and fails on the interrupt (BootstrapMethodError)
        for (Map.Entry<String, Running> e : running.entrySet()) {
            if (e.getValue().blockKey().equals(blockKey)) {
                end(e.getKey());
            }
        }
    }

    private void end(final String id) {
        Running r;
        // taken out and marked in one step under the lock a collect waits on: a collect that sees the guard neither
        // running nor ending finds its record kept (the tick thread ending it while a collect looked lost the record)
        synchronized (this) {
            r = running.remove(id);
            if (r == null) {
                return;
            }
            ending.add(id);
        }
        try {
            GuardReport report = r.loop().finish();
            Map<String, String> owners = new LinkedHashMap<>();
            Map<String, String> labels = new LinkedHashMap<>();
            Map<Long, String> launchOf = new LinkedHashMap<>();
            for (GuardReport.LoweredTime l : report.lowered()) {
                String launch = r.seen().getOrDefault(l.competitor().pid(), "");
                launchOf.put(l.competitor().pid(), launch);
                String[] n = names.getOrDefault(launch, new String[] {"", ""});
                owners.put(launch, n[0]);
                labels.put(launch, n[1]);
            }
            keep(id, new GuardRecord(id, report, launchOf, owners, labels));
        } catch (RuntimeException e) {
            synchronized (this) {
                ending.remove(id);
                notifyAll();
            }
            throw e;
        }
    }

    private synchronized void keep(final String id, final GuardRecord record) {
        ended.put(id, record);
        ending.remove(id);
        notifyAll();
    }

    /** Whether a running guard has moved processes out of the cpu cgroup {@code path}, to put them back there. */
    boolean holdsHomeIn(final String path) {
        for (Running r : running.values()) {
            if (r.loop().homeGroups().contains(path)) {
                return true;
            }
        }
        return false;
    }

    boolean isEmpty() {
        return running.isEmpty() && requested.isEmpty();
    }

    /**
     * The records of the given guarded launches, each handed out once: waits up to {@code wait} for their guards to
     * end by themselves, then ends those still running. Ids that were never guarded here are left out.
     */
    List<GuardRecord> collect(final List<String> ids, final Duration wait) {
        synchronized (this) {
            awaitWhile(() -> ids.stream().anyMatch(id -> running.containsKey(id) || ending.contains(id)),
                    System.nanoTime() + wait.toNanos());
        }
        ids.forEach(this::end);
        List<GuardRecord> out = new ArrayList<>();
        synchronized (this) {
            // one another thread is still ending: its loop's finish is bounded, so wait for the record a little longer
            awaitWhile(() -> ids.stream().anyMatch(ending::contains), System.nanoTime() + ENDING_BOUND_NANOS);
            for (String id : ids) {
                GuardRecord r = ended.remove(id);
                if (r != null) {
                    out.add(r);
                }
            }
        }
        return out;
    }

    /** Waits on this object's monitor (held) while {@code condition} holds, until {@code deadline} (nanoTime). */
    private void awaitWhile(final BooleanSupplier condition, final long deadline) {
        while (condition.getAsBoolean() && System.nanoTime() < deadline) {
            try {
                wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    @Override
    public void close() {
        List.copyOf(running.keySet()).forEach(this::end);
    }
}
