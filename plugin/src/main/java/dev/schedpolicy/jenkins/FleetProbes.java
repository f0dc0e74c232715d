package dev.schedpolicy.jenkins;

import dev.schedpolicy.engine.fleet.FleetProbeQueue;
import dev.schedpolicy.engine.fleet.ProbeResult;
import edu.umd.cs.findbugs.annotations.CheckForNull;
import hudson.model.Computer;
import hudson.model.Node;
import hudson.remoting.VirtualChannel;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;
import jenkins.model.Jenkins;

/**
 * The fleet view's cache: the last probe of every node, kept in memory (a restart probes again as the agents connect).
 * Probes go through the engine's {@link FleetProbeQueue}: at most {@link #MAX_IN_FLIGHT} at once on threads of its own
 * (not remoting's pool, which agents' connections need), one per node, each given up after {@link #TIMEOUT_SECONDS}
 * ({@link #FIRST_TIMEOUT_SECONDS} for the first probe after a node connects). The
 * page only ever reads the cache, so a slow or offline agent never holds it up; a deleted node's entry is dropped.
 */
final class FleetProbes {
    /** Enough to refresh 1,000 agents in well under a minute at a warm probe's 0.03-0.4 s (docs/jenkins.md). */
    static final int MAX_IN_FLIGHT = 16;
    /**
     * A warm probe takes under a second, an agent's first (the engine loaded through remoting) 2-4 s on a busy machine;
     * 30 s means the agent is stuck, and keeps a refresh of 1,000 agents under a minute even with every slot stuck once.
     */
    static final int TIMEOUT_SECONDS = 30;
    /**
     * An agent's first probe after it connects loads the engine through remoting: measured 24-30 s and more for 8 agents
     * connecting at once on a 2-CPU machine at load 40-57 (docs/jenkins.md), 2-4 s on a quieter one.
     */
    static final int FIRST_TIMEOUT_SECONDS = 120;
    private static final Logger LOGGER = Logger.getLogger(FleetProbes.class.getName());
    private static final FleetProbes INSTANCE = new FleetProbes();

    private final FleetProbeQueue queue = new FleetProbeQueue(MAX_IN_FLIGHT, Duration.ofSeconds(TIMEOUT_SECONDS),
            "Sched Policy fleet probe");

    static FleetProbes get() {
        return INSTANCE;
    }

    /** How every page and console line names the built-in node, whose name in Jenkins (and in our records) is "". */
    static final String BUILT_IN = "built-in";

    /**
     * The node's name as the plugin shows it, the one place that turns Jenkins' and the records' "" into
     * {@link #BUILT_IN}; null (a record made before the node was kept) is the built-in node too.
     */
    static String nameOf(@CheckForNull final String nodeName) {
        return nodeName == null || nodeName.isEmpty() ? BUILT_IN : nodeName;
    }

    @CheckForNull
    ProbeResult result(final String name) {
        return queue.result(name);
    }

    /** Whether a probe of the node is queued or running. */
    boolean probing(final String name) {
        return queue.pending(name);
    }

    /** Nodes with a result in the cache. */
    int size() {
        return queue.size();
    }

    /** Probes every online node, at most {@link #MAX_IN_FLIGHT} at once; drops nodes that are gone; returns at once. */
    void refreshAll() {
        Jenkins j = Jenkins.get();
        Set<String> names = new HashSet<>();
        names.add(nameOf(""));
        for (Node n : j.getNodes()) {
            names.add(nameOf(n.getNodeName()));
        }
        queue.retainOnly(names);
        for (Computer c : j.getComputers()) {
            refresh(c);
        }
    }

    /** Queues a probe of the node unless it is offline or one is pending; returns at once. */
    void refresh(final Computer computer) {
        refresh(computer, Duration.ofSeconds(TIMEOUT_SECONDS));
    }

    /** The first probe of a node that has just connected: with {@link #FIRST_TIMEOUT_SECONDS}. */
    void probeConnected(final Computer computer) {
        refresh(computer, Duration.ofSeconds(FIRST_TIMEOUT_SECONDS));
    }

    private void refresh(final Computer computer, final Duration timeout) {
        if (computer.isOffline() || computer.getNode() == null) {
            return; // its last result stays, with its age: an offline agent has nothing newer to say
        }
        String name = nameOf(computer.getName());
        submit(name, timeout, () -> {
            VirtualChannel channel = computer.getChannel();
            Node node = computer.getNode();
            // went offline while queued: nothing to ask, the last result stays
            return channel == null || node == null ? null
                    : channel.callAsync(new AgentCalls.ProbeSummary(NodeDefaults.cgroupParentFor(node)));
        });
    }

    /** Queues a probe made by {@code prober} (the call to the agent); false when one of that node is pending. */
    boolean submit(final String name, final FleetProbeQueue.Prober prober) {
        return submit(name, Duration.ofSeconds(TIMEOUT_SECONDS), prober);
    }

    private boolean submit(final String name, final Duration timeout, final FleetProbeQueue.Prober prober) {
        return queue.submit(name, () -> {
            try {
                return prober.start();
            } catch (Exception e) {
                // the page shows it; not a warning in the log, since an agent that disconnects mid-probe is normal
                LOGGER.log(Level.INFO, "Sched Policy probe of {0} failed: {1}", new Object[] {name, e.toString()});
                throw e;
            }
        }, timeout);
    }

    /** Drops a deleted node's result (a cloud's pods come and go: one entry each would pile up forever). */
    void forget(final String name) {
        queue.forget(name);
    }
}
