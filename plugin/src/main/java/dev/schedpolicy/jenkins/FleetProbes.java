package dev.schedpolicy.jenkins;

import dev.schedpolicy.engine.fleet.AgentSummary;
import dev.schedpolicy.engine.fleet.ProbeResult;
import edu.umd.cs.findbugs.annotations.CheckForNull;
import hudson.model.Computer;
import hudson.remoting.VirtualChannel;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Level;
import java.util.logging.Logger;
import jenkins.model.Jenkins;

/**
 * The fleet view's cache: the last probe of every node, kept in memory (a restart probes again as the agents connect).
 * Probes run on remoting's thread pool, one at a time per node, and give up after {@link #TIMEOUT_SECONDS}; the page
 * only ever reads the cache, so a slow or offline agent never holds it up.
 */
final class FleetProbes {
    /** A probe takes about a second (scratch processes, cgroup trials); a minute means the agent is stuck. */
    static final int TIMEOUT_SECONDS = 60;
    private static final Logger LOGGER = Logger.getLogger(FleetProbes.class.getName());
    private static final FleetProbes INSTANCE = new FleetProbes();

    private final Map<String, ProbeResult> results = new ConcurrentHashMap<>();
    private final Map<String, Future<?>> running = new ConcurrentHashMap<>();

    static FleetProbes get() {
        return INSTANCE;
    }

    /** The node's name on the fleet view: the built-in node has the empty name in Jenkins. */
    static String nameOf(final String nodeName) {
        return nodeName.isEmpty() ? "built-in" : nodeName;
    }

    @CheckForNull
    ProbeResult result(final String name) {
        return results.get(name);
    }

    boolean probing(final String name) {
        Future<?> f = running.get(name);
        return f != null && !f.isDone();
    }

    /** Probes every online node; returns at once. */
    void refreshAll() {
        Jenkins j = Jenkins.get();
        for (Computer c : j.getComputers()) {
            refresh(c);
        }
    }

    /** Starts a probe of the node unless it is offline or one is under way; returns at once. */
    void refresh(final Computer computer) {
        if (computer.isOffline() || computer.getNode() == null) {
            return; // its last result stays, with its age: an offline agent has nothing newer to say
        }
        String name = nameOf(computer.getName());
        running.compute(name, (k, f) -> f != null && !f.isDone() ? f
                : Computer.threadPoolForRemoting.submit(() -> probe(computer, name)));
    }

    private void probe(final Computer computer, final String name) {
        long start = System.currentTimeMillis();
        VirtualChannel channel = computer.getChannel();
        if (channel == null) {
            return; // went offline meanwhile
        }
        Future<String> call = null;
        try {
            call = channel.callAsync(new AgentCalls.ProbeSummary(NodeDefaults.cgroupParentFor(computer.getNode())));
            String json = call.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            long end = System.currentTimeMillis();
            results.put(name, ProbeResult.of(AgentSummary.fromJson(json), end, end - start));
        } catch (TimeoutException e) {
            call.cancel(true);
            failed(name, start, "no answer within " + TIMEOUT_SECONDS + " s (the agent is busy or stuck)");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            failed(name, start, cause.getClass().getSimpleName() + ": " + cause.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failed(name, start, "interrupted (Jenkins is shutting down)");
        } catch (java.io.IOException | RuntimeException e) {
            failed(name, start, e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    private void failed(final String name, final long start, final String why) {
        long end = System.currentTimeMillis();
        // the page shows it; not a warning in the log, since an agent that disconnects mid-probe is normal
        LOGGER.log(Level.INFO, "Sched Policy probe of {0} failed: {1}", new Object[] {name, why});
        results.put(name, ProbeResult.failed(why, end, end - start));
    }
}
