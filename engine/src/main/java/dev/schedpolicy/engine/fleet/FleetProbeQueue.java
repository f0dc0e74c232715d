package dev.schedpolicy.engine.fleet;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The fleet's probes and the last result of each agent. At most {@code maxInFlight} probes run at once, whatever the
 * fleet's size (a refresh of 1,000 agents queues 1,000 and works through them); one per agent at a time; each gets
 * {@code timeout} from its start, not from being queued, so a long queue never fails an agent. An agent that is
 * forgotten (its node deleted) loses its result, and an answer that arrives after that is dropped: the cache holds the
 * fleet's current agents only.
 */
public final class FleetProbeQueue {
    /** Starts one agent's probe; the future's value is the agent's {@link AgentSummary} as JSON. */
    @FunctionalInterface
    public interface Prober {
        /** @return the call under way, or null when there is nothing to ask (the agent went offline): its last result stays */
        Future<String> start() throws Exception;
    }

    private final ThreadPoolExecutor pool;
    private final Duration timeout;
    private final Map<String, ProbeResult> results = new ConcurrentHashMap<>();
    private final Map<String, Task> pending = new ConcurrentHashMap<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger peakInFlight = new AtomicInteger();
    private final AtomicLong started = new AtomicLong();

    /** @param threadName the name of the pool's threads (they end after a minute without work) */
    public FleetProbeQueue(final int maxInFlight, final Duration timeout, final String threadName) {
        if (maxInFlight < 1 || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("a probe queue needs at least one probe in flight and a positive timeout");
        }
        this.timeout = timeout;
        AtomicInteger n = new AtomicInteger();
        this.pool = new ThreadPoolExecutor(maxInFlight, maxInFlight, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, threadName + " " + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        pool.allowCoreThreadTimeOut(true);
    }

    /** Queues a probe of the agent unless one is queued or running; returns at once (false: one was pending). */
    public boolean submit(final String name, final Prober prober) {
        return submit(name, prober, timeout);
    }

    /**
     * The same with a timeout of its own: an agent's first probe after it connects loads the engine through remoting,
     * which on a loaded machine takes longer than any later probe.
     */
    public boolean submit(final String name, final Prober prober, final Duration timeout) {
        Task task = new Task(name, prober, timeout);
        if (pending.putIfAbsent(name, task) != null) {
            return false;
        }
        pool.execute(task);
        return true;
    }

    public ProbeResult result(final String name) {
        return results.get(name);
    }

    /** Whether a probe of the agent is queued or running. */
    public boolean pending(final String name) {
        return pending.containsKey(name);
    }

    /** Drops the agent's result; a probe of it under way is not recorded. */
    public synchronized void forget(final String name) {
        pending.remove(name);
        results.remove(name);
    }

    /** Forgets every agent not named: nodes deleted without the listener hearing of it. */
    public void retainOnly(final Set<String> names) {
        Set.copyOf(results.keySet()).stream().filter(n -> !names.contains(n)).forEach(this::forget);
        Set.copyOf(pending.keySet()).stream().filter(n -> !names.contains(n)).forEach(this::forget);
    }

    /** How many agents have a result. */
    public int size() {
        return results.size();
    }

    /** Probes running now. */
    public int inFlight() {
        return inFlight.get();
    }

    /** The most probes that ever ran at once. */
    public int peakInFlight() {
        return peakInFlight.get();
    }

    /** Probes started since the queue was made. */
    public long started() {
        return started.get();
    }

    private final class Task implements Runnable {
        private final String name;
        private final Prober prober;
        private final Duration timeout;

        Task(final String name, final Prober prober, final Duration timeout) {
            this.name = name;
            this.prober = prober;
            this.timeout = timeout;
        }

        @Override
        public void run() {
            if (pending.get(name) != this) {
                return; // forgotten while queued
            }
            peakInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            started.incrementAndGet();
            long start = System.currentTimeMillis();
            Future<String> call = null;
            try {
                call = prober.start();
                if (call != null) {
                    String json = call.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
                    long end = System.currentTimeMillis();
                    record(ProbeResult.of(AgentSummary.fromJson(json), end, end - start));
                }
            } catch (TimeoutException e) {
                call.cancel(true);
                failed(start, "no answer within " + Durations.seconds(timeout.toMillis()) + " (the agent is busy or stuck)");
            } catch (ExecutionException e) {
                Throwable cause = e.getCause() == null ? e : e.getCause();
                failed(start, cause.getClass().getSimpleName() + ": " + cause.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                failed(start, "interrupted (Jenkins is shutting down)");
            } catch (CancellationException e) {
                failed(start, "cancelled");
            } catch (Exception e) {
                failed(start, e.getClass().getSimpleName() + ": " + e.getMessage());
            } finally {
                inFlight.decrementAndGet();
                pending.remove(name, this);
            }
        }

        private void failed(final long start, final String why) {
            long end = System.currentTimeMillis();
            record(ProbeResult.failed(why, end, end - start));
        }

        /** Only while still pending: an agent forgotten meanwhile (node deleted) must not come back. */
        private void record(final ProbeResult result) {
            synchronized (FleetProbeQueue.this) {
                if (pending.get(name) == this) {
                    results.put(name, result);
                }
            }
        }
    }
}
