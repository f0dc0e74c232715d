package dev.schedpolicy.engine.agent;

import dev.schedpolicy.engine.measure.MeasureBook;
import dev.schedpolicy.engine.measure.StepMeasure;
import dev.schedpolicy.engine.measure.StepMeter;
import dev.schedpolicy.engine.measure.TaskSource;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The measured launches of one agent JVM, by launch id: one {@link MeasureBook} for all of them, so each launch's
 * wait is charged to the others by their labels (the agent's own records of who launched what, under which policy).
 * A launch's figures are kept once all its processes ended, until the controller collects them (it does as the
 * build goes, not only at its end): at most {@link #KEPT} for all builds of the agent, the oldest evicted first. The
 * ids of evicted launches are remembered (a bounded number of them), so that the controller can say what was lost
 * and why instead of guessing.
 */
final class LaunchMeasures {
    static final int KEPT = 2000;
    /** Evicted ids remembered: ten times the kept records, about 40 bytes each. */
    private static final int EVICTED_REMEMBERED_PER_KEPT = 10;

    private final MeasureBook book;
    private final int kept;
    private final Instant since = Instant.now();
    private final Map<String, StepMeter> running = new ConcurrentHashMap<>();
    private final Map<String, MeasureRecord> ended;
    private final LinkedHashSet<String> evicted = new LinkedHashSet<>();

    LaunchMeasures(final MeasureBook book) {
        this(book, KEPT);
    }

    LaunchMeasures(final MeasureBook book, final int kept) {
        this.book = book;
        this.kept = kept;
        this.ended = new LinkedHashMap<>(16, 0.75f, false) {
            @Override
            protected boolean removeEldestEntry(final Map.Entry<String, MeasureRecord> eldest) {
                if (size() <= LaunchMeasures.this.kept) {
                    return false;
                }
                remember(eldest.getKey());
                return true;
            }
        };
    }

    private void remember(final String evictedId) {
        evicted.add(evictedId);
        if (evicted.size() > kept * EVICTED_REMEMBERED_PER_KEPT) {
            evicted.remove(evicted.iterator().next());
        }
    }

    /** Measures launch {@code id} from its release on; {@code label} names it to the other launches, for no owner. */
    void open(final String id, final String label, final boolean placedByPolicy) {
        open(id, label, "", placedByPolicy);
    }

    /** Measures launch {@code id} from its release on; {@code label} and {@code owner} name it to the other launches. */
    void open(final String id, final String label, final String owner, final boolean placedByPolicy) {
        running.put(id, book.openUntilEmpty(label, owner, placedByPolicy, m -> end(id, m, true)));
    }

    /** Measures the container exec {@code id}, whose processes {@code tasks} finds, from now until they are over. */
    void open(final String id, final String label, final String owner, final TaskSource tasks) {
        running.put(id, book.openUntilEmpty(label, owner, tasks, m -> end(id, m, true)));
    }

    /** Puts the released PID into the launch's group (called while the shim still waits); no-op when unmeasured. */
    void attach(final String id, final long pid) {
        StepMeter meter = running.get(id);
        if (meter != null) {
            meter.attach(pid);
        }
    }

    /** The launch runs under a CPU quota: its meter keeps the quota's hold apart from the wait; no-op when unmeasured. */
    void throttledBy(final String id, final Supplier<OptionalLong> throttledNanos) {
        StepMeter meter = running.get(id);
        if (meter != null) {
            meter.throttledBy(throttledNanos);
        }
    }

    /** The launch never ran: its meter (and group) go without a record. */
    void drop(final String id) {
        StepMeter meter = running.remove(id);
        if (meter != null) {
            book.close(meter);
        }
    }

    boolean isRunning(final String id) {
        return running.containsKey(id);
    }

    private synchronized void end(final String id, final StepMeasure m, final boolean allExited) {
        if (running.remove(id) != null) {
            ended.put(id, new MeasureRecord(id, m, allExited));
            notifyAll();
        }
    }

    /**
     * The figures of the given launches, each handed out once. With {@code endRunning} it waits up to {@code wait} for
     * their processes to end and ends a launch still running then (its figures up to now, with a note); without, it
     * answers at once and leaves running launches measured (listed as running, to be asked for again). For an id it
     * has no figures of, it says why.
     */
    MeasureCollection collect(final List<String> ids, final Duration wait, final boolean endRunning) {
        List<String> stillRunning = new ArrayList<>();
        if (endRunning) {
            awaitEnd(ids, wait);
            for (String id : ids) {
                StepMeter meter = running.get(id);
                if (meter != null) {
                    end(id, book.close(meter), false);
                }
            }
        }
        List<MeasureRecord> out = new ArrayList<>();
        Map<String, String> lost = new LinkedHashMap<>();
        synchronized (this) {
            for (String id : ids) {
                MeasureRecord r = ended.remove(id);
                if (r != null) {
                    out.add(r);
                } else if (running.containsKey(id)) {
                    stillRunning.add(id);
                } else {
                    lost.put(id, whyLost(id));
                }
            }
        }
        return new MeasureCollection(out, stillRunning, lost);
    }

    private String whyLost(final String id) {
        if (evicted.contains(id)) {
            return "evicted unread: an agent keeps the figures of at most " + kept + " ended launches for all builds until"
                    + " the controller collects them, and these were the oldest";
        }
        return "the agent has no figures for it: they live in the agent's JVM, whose measuring began at "
                + DateTimeFormatter.ISO_LOCAL_TIME.format(since.atOffset(ZoneOffset.UTC).toLocalTime().withNano(0))
                + " UTC (a restart or a reconnect since the launch starts afresh), or they were collected before";
    }

    private synchronized void awaitEnd(final List<String> ids, final Duration wait) {
        long deadline = System.nanoTime() + wait.toNanos();
        while (ids.stream().anyMatch(running::containsKey) && System.nanoTime() < deadline) {
            try {
                wait(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    void close() {
        book.close();
    }
}
