package dev.schedpolicy.engine.guard;

import dev.schedpolicy.engine.measure.TaskSampler;
import dev.schedpolicy.engine.proc.ProcFs;
import dev.schedpolicy.engine.proc.SchedStat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * Guards one step, the process tree of {@code rootPid}: every period it reads the tree's run-queue wait (per-task
 * schedstat); when the wait over a period exceeds the threshold it lowers the busy competitors, each by the first
 * {@link Lowering} that takes it; while lowered, newly busy competitors are lowered too; once the step has asked for
 * little CPU for the quiet time, once it has no process left, or at {@link #close}, everything is put back. The period
 * is short while the guard arms (its start, and after each putting back) and long while it acts
 * ({@link GuardSettings#periodNanos}). Runs on a thread of its own at the caller's priority: a lowered guard would act
 * late exactly when the machine is busy.
 */
public final class GuardLoop implements AutoCloseable {
    private final ProcFs proc;
    private final Supplier<List<Long>> guardedTree;
    private final String name;
    private final Competitors competitors;
    private final List<Lowering> lowerings;
    private final GuardSettings settings;
    private final Set<Long> alwaysExcluded;
    private final TaskSampler sampler;
    private final Map<Long, Lowering.Lowered> active = new LinkedHashMap<>();
    private final Map<Long, Tally> tallies = new LinkedHashMap<>();
    private final Set<Long> refused = new HashSet<>();
    private final List<String> notes = new ArrayList<>();
    private final long startNanos;
    private Thread thread;
    private volatile boolean stopping;
    /** Whether the last period found no process of the step (or none ran yet): whoever ends the guard looks then. */
    private volatile boolean noProcess = true;
    /** Since when the step has shown no process; -1 while it shows some. */
    private long emptySinceNanos = -1;
    private SchedStat last = SchedStat.ZERO;
    private long lastTickNanos;
    private long nextScanNanos;
    private long quietSinceNanos = -1;
    /** When the guard last began to arm: its start, or its last putting back; it ticks fast for a while after. */
    private long armedSinceNanos;
    private long loweredSinceNanos;
    private long runnableNanos;
    private long waitNanos;
    private long waitUnloweredNanos;
    private long actingNanos;
    private int actions;
    private long firstActionNanos = -1;
    private boolean restoreFailed;
    private GuardReport report;

    public GuardLoop(final ProcFs proc, final long rootPid, final Competitors competitors, final List<Lowering> lowerings,
            final GuardSettings settings, final Set<Long> alwaysExcluded) {
        this(proc, () -> {
            List<Long> tree = new ArrayList<>();
            tree.add(rootPid);
            tree.addAll(proc.descendants(rootPid).orElse(List.of()));
            return tree;
        }, String.valueOf(rootPid), competitors, lowerings, settings, alwaysExcluded);
    }

    /**
     * Guards the processes {@code guardedTree} names at each period (on a Jenkins agent, a launch's processes, which
     * its shell step re-parents away from the launched PID); {@code name} names the guard's thread.
     */
    @SuppressWarnings("checkstyle:ParameterNumber")
    public GuardLoop(final ProcFs proc, final Supplier<List<Long>> guardedTree, final String name, final Competitors competitors,
            final List<Lowering> lowerings, final GuardSettings settings, final Set<Long> alwaysExcluded) {
        if (lowerings.isEmpty()) {
            throw new IllegalArgumentException("a guard needs at least one way to lower competitors");
        }
        this.proc = proc;
        this.guardedTree = guardedTree;
        this.name = name;
        this.competitors = competitors;
        this.lowerings = List.copyOf(lowerings);
        this.settings = settings;
        this.alwaysExcluded = Set.copyOf(alwaysExcluded);
        this.sampler = new TaskSampler(proc);
        this.startNanos = System.nanoTime();
        this.lastTickNanos = startNanos;
        this.armedSinceNanos = startNanos;
    }

    /** Starts watching on a thread of its own. */
    public synchronized GuardLoop start() {
        last = sampler.sample(tasks(treeNow()));
        competitors.scan(excluded(treeNow()));
        // who is busy takes two scans; the second comes as soon as the CPU counters can tell, so that a step that waits
        // from its first instruction is helped within a few fast periods, not after a whole scan period
        nextScanNanos = System.nanoTime() + GuardSettings.MIN_BUSY_WINDOW.toNanos();
        thread = new Thread(this::run, "schedpolicy-guard-" + name);
        thread.setDaemon(true);
        thread.start();
        return this;
    }

    private void run() {
        long next = System.nanoTime() + nextPeriodNanos();
        while (!stopping) {
            LockSupport.parkNanos(Math.max(0, next - System.nanoTime()));
            if (stopping) {
                break;
            }
            try {
                tick();
            } catch (RuntimeException e) {
                synchronized (this) {
                    note("the guard's period failed: " + e.getMessage());
                }
            }
            long periodNanos = nextPeriodNanos();
            next += periodNanos;
            long now = System.nanoTime();
            if (next < now) {
                next = now + periodNanos;
            }
        }
    }

    private synchronized long nextPeriodNanos() {
        if (emptySinceNanos >= 0 && !active.isEmpty()) {
            return settings.fastPeriod().toNanos(); // the step may have ended: what it lowered goes back soon
        }
        return settings.periodNanos(System.nanoTime() - armedSinceNanos, !active.isEmpty());
    }

    /** One period: read the wait, scan when due, act or put back. */
    synchronized void tick() {
        long now = System.nanoTime();
        List<Long> tree = treeNow();
        noProcess = tree.isEmpty();
        SchedStat total = sampler.sample(tasks(tree));
        SchedStat delta = total.minus(last);
        last = total;
        long elapsed = Math.max(1, now - lastTickNanos);
        long periodStart = lastTickNanos;
        lastTickNanos = now;
        long runnable = Math.max(0, delta.onCpuNanos()) + Math.max(0, delta.runQueueWaitNanos());
        runnableNanos += runnable;
        waitNanos += Math.max(0, delta.runQueueWaitNanos());
        if (active.isEmpty()) {
            waitUnloweredNanos += Math.max(0, delta.runQueueWaitNanos());
        }
        if (now >= nextScanNanos) {
            competitors.scan(excluded(tree));
            nextScanNanos = now + settings.scanPeriod().toNanos();
        }
        boolean over = runnable >= settings.minRunnableNanos(elapsed) && delta.waitShare() > settings.waitThreshold();
        if (tree.isEmpty()) {
            // the step has no process left: nobody to yield to, so no quiet time to wait out; but a shell step's script
            // is found a moment after its launched shell exits, so "none" must hold for a few fast periods first
            if (emptySinceNanos < 0) {
                emptySinceNanos = now;
            } else if (now - emptySinceNanos >= GuardSettings.EMPTY_GRACE.toNanos()) {
                restoreAll(now);
            }
            return;
        }
        emptySinceNanos = -1;
        if (over) {
            quietSinceNanos = -1;
            lowerBusy(now, periodStart);
        } else if (!active.isEmpty()) {
            if ((double) runnable / elapsed < settings.quietShare()) {
                if (quietSinceNanos < 0) {
                    quietSinceNanos = now;
                } else if (now - quietSinceNanos >= settings.quiet().toNanos()) {
                    restoreAll(now);
                }
            } else {
                quietSinceNanos = -1;
                lowerBusy(now, periodStart);
            }
        }
    }

    /** Lowers every busy competitor not lowered yet (newly busy ones join those already lowered). */
    private void lowerBusy(final long now, final long periodStart) {
        boolean wasIdle = active.isEmpty();
        for (Competitor c : competitors.busy()) {
            if (active.containsKey(c.pid()) || refused.contains(c.pid()) || alwaysExcluded.contains(c.pid())) {
                continue;
            }
            List<String> why = new ArrayList<>();
            boolean heldElsewhere = false;
            for (Lowering l : lowerings) {
                try {
                    active.put(c.pid(), l.lower(c));
                    tallies.computeIfAbsent(c.pid(), k -> new Tally(c, l.means())).times++;
                    break;
                } catch (Lowering.HeldElsewhere e) {
                    heldElsewhere = true;
                    break;
                } catch (RuntimeException e) {
                    why.add(l.means() + ": " + e.getMessage());
                }
            }
            if (!active.containsKey(c.pid()) && !heldElsewhere) {
                refused.add(c.pid());
                note("could not lower " + c + ": " + String.join("; ", why));
            }
        }
        if (wasIdle && !active.isEmpty()) {
            actions++;
            loweredSinceNanos = now;
            if (firstActionNanos < 0) {
                firstActionNanos = System.nanoTime() - periodStart;
            }
        }
    }

    private void restoreAll(final long now) {
        if (!active.isEmpty()) {
            actingNanos += now - loweredSinceNanos;
            armedSinceNanos = now;
        }
        for (Map.Entry<Long, Lowering.Lowered> e : active.entrySet()) {
            try {
                e.getValue().restore();
            } catch (RuntimeException ex) {
                restoreFailed = true;
                note("could not put back " + e.getValue().competitor() + ": " + ex.getMessage());
            }
            tallies.get(e.getKey()).nanos += now - loweredSinceNanos;
        }
        active.clear();
        quietSinceNanos = -1;
        emptySinceNanos = -1;
    }

    private List<Long> treeNow() {
        return guardedTree.get();
    }

    private List<Long> tasks(final List<Long> tree) {
        List<Long> tids = new ArrayList<>();
        for (long pid : tree) {
            tids.addAll(proc.threads(pid));
        }
        return tids;
    }

    private Set<Long> excluded(final List<Long> tree) {
        Set<Long> out = new HashSet<>(tree);
        out.addAll(alwaysExcluded);
        return out;
    }

    private void note(final String text) {
        if (notes.size() < 20 && !notes.contains(text)) {
            notes.add(text);
        }
    }

    /** Whether the guard's last period found no process of the step left: a cheap hint to check its end. */
    public boolean sawNoProcess() {
        return noProcess;
    }

    /**
     * The cpu cgroups the processes lowered now came from: they look empty meanwhile, and whoever removes empty groups
     * must leave them, or nothing could go back.
     */
    public synchronized Set<String> homeGroups() {
        Set<String> out = new HashSet<>();
        for (Lowering.Lowered l : active.values()) {
            l.homeGroup().ifPresent(out::add);
        }
        return out;
    }

    /** Whether anything is lowered now. */
    public synchronized boolean acting() {
        return !active.isEmpty();
    }

    /** Stops watching and puts back everything still lowered; the report of the whole guarded time. */
    public GuardReport finish() {
        close();
        return report;
    }

    @Override
    public void close() {
        Thread t;
        synchronized (this) {
            if (report != null) {
                return;
            }
            stopping = true;
            t = thread;
        }
        if (t != null) {
            LockSupport.unpark(t);
            try {
                t.join(TimeUnit.SECONDS.toMillis(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        synchronized (this) {
            long now = System.nanoTime();
            restoreAll(now);
            for (Lowering l : lowerings) {
                try {
                    l.close();
                } catch (RuntimeException e) {
                    restoreFailed = true;
                    note("could not remove what the guard made (" + l.means() + "): " + e.getMessage());
                }
            }
            List<GuardReport.LoweredTime> lowered = new ArrayList<>();
            tallies.values().forEach(tally -> lowered.add(new GuardReport.LoweredTime(tally.competitor, tally.means,
                    TimeUnit.NANOSECONDS.toMillis(tally.nanos), tally.times)));
            report = new GuardReport(TimeUnit.NANOSECONDS.toMillis(now - startNanos),
                    TimeUnit.NANOSECONDS.toMillis(runnableNanos), TimeUnit.NANOSECONDS.toMillis(waitNanos),
                    TimeUnit.NANOSECONDS.toMillis(waitUnloweredNanos), TimeUnit.NANOSECONDS.toMillis(actingNanos), actions,
                    firstActionNanos < 0 ? -1 : TimeUnit.NANOSECONDS.toMillis(firstActionNanos), lowered, notes,
                    !restoreFailed);
        }
    }

    /** One competitor over the guarded time: how it was first lowered, for how long in all, how many times. */
    private static final class Tally {
        private final Competitor competitor;
        private final String means;
        private long nanos;
        private int times;

        Tally(final Competitor competitor, final String means) {
            this.competitor = competitor;
            this.means = means;
        }
    }
}
