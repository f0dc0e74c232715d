package dev.schedpolicy.engine.agent;

import dev.schedpolicy.engine.measure.MeasureBook;
import dev.schedpolicy.engine.measure.StepMeasure;
import dev.schedpolicy.engine.measure.StepMeter;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The measured launches of one agent JVM, by launch id: one {@link MeasureBook} for all of them, so each launch's
 * wait is charged to the others by their labels (the agent's own records of who launched what, under which policy).
 * A launch's figures are kept once all its processes ended, until the controller collects them.
 */
final class LaunchMeasures {
    private static final int KEPT = 2000;

    private final MeasureBook book;
    private final Map<String, StepMeter> running = new ConcurrentHashMap<>();
    private final Map<String, MeasureRecord> ended = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(final Map.Entry<String, MeasureRecord> eldest) {
            return size() > KEPT;
        }
    };

    LaunchMeasures(final MeasureBook book) {
        this.book = book;
    }

    /** Measures launch {@code id} from its release on; {@code label} names it to the other launches. */
    void open(final String id, final String label, final boolean placedByPolicy) {
        running.put(id, book.openUntilEmpty(label, placedByPolicy, m -> end(id, m, true)));
    }

    /** Puts the released PID into the launch's group (called while the shim still waits); no-op when unmeasured. */
    void attach(final String id, final long pid) {
        StepMeter meter = running.get(id);
        if (meter != null) {
            meter.attach(pid);
        }
    }

    /** The launch never ran: its meter (and group) go without a record. */
    void drop(final String id) {
        StepMeter meter = running.remove(id);
        if (meter != null) {
            book.close(meter);
        }
    }

    private synchronized void end(final String id, final StepMeasure m, final boolean allExited) {
        if (running.remove(id) != null) {
            ended.put(id, new MeasureRecord(id, m, allExited));
            notifyAll();
        }
    }

    /**
     * The figures of the given launches, waiting up to {@code wait} for their processes to end; a launch still running
     * then is ended now (its figures up to now, with a note). Unknown ids (never measured, or collected before) are left out.
     */
    ArrayList<MeasureRecord> collect(final List<String> ids, final Duration wait) {
        long deadline = System.nanoTime() + wait.toNanos();
        synchronized (this) {
            while (ids.stream().anyMatch(running::containsKey) && System.nanoTime() < deadline) {
                try {
                    wait(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        for (String id : ids) {
            StepMeter meter = running.get(id);
            if (meter != null) {
                end(id, book.close(meter), false);
            }
        }
        ArrayList<MeasureRecord> out = new ArrayList<>();
        synchronized (this) {
            for (String id : ids) {
                MeasureRecord r = ended.remove(id);
                if (r != null) {
                    out.add(r);
                }
            }
        }
        return out;
    }

    void close() {
        book.close();
    }
}
