package dev.schedpolicy.jenkins;

import dev.schedpolicy.engine.agent.MeasureCollection;
import dev.schedpolicy.engine.agent.MeasureRecord;
import hudson.model.Computer;
import hudson.remoting.VirtualChannel;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import jenkins.model.Jenkins;

/**
 * Gathers the figures of measured launches from their agents: every node asked at once (remoting's asynchronous
 * call, no thread held per agent), all answers awaited until one deadline, so that a hung agent costs its caller at
 * most that deadline and never holds up the other nodes' figures. At the end of a build the agents wait up to
 * {@link #WAIT_SECONDS} for launches still running; as the build goes they answer at once and keep running launches
 * measured.
 */
final class AgentMeasures {
    /** How long an agent waits at the end of a build for a launch's last processes (durable-task's heartbeat loop). */
    static final int WAIT_SECONDS = 15;
    /** A busy agent's answer beyond its own wait; an agent silent for longer is taken for hung. */
    static final int ANSWER_SECONDS = 15;

    /** What came back: figures, lines on what is lost, and launches still running (to be asked for again). */
    record Gathered(List<MeasureResult.Launch> launches, List<String> missing, List<MeasuredLaunches.Pending> running) {
    }

    private AgentMeasures() {
    }

    /**
     * @param atEnd the build ended: launches still running are ended with their figures up to now, and a node that
     *              cannot answer loses its launches (in words); as the build goes, its launches are asked for again
     */
    static Gathered gather(final List<MeasuredLaunches.Pending> pending, final boolean atEnd) {
        Map<String, List<MeasuredLaunches.Pending>> byNode = new LinkedHashMap<>();
        for (MeasuredLaunches.Pending p : pending) {
            byNode.computeIfAbsent(p.node, k -> new ArrayList<>()).add(p);
        }
        List<MeasureResult.Launch> launches = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        List<MeasuredLaunches.Pending> running = new ArrayList<>();
        Map<String, Future<MeasureCollection>> asked = new LinkedHashMap<>();
        byNode.forEach((node, mine) -> {
            String problem = ask(node, mine, atEnd, asked);
            if (problem != null) {
                lose(atEnd, mine, mine.size() + " launch(es) on " + FleetProbes.nameOf(node) + ": " + problem, missing, running);
            }
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos((atEnd ? WAIT_SECONDS : 0) + ANSWER_SECONDS);
        asked.forEach((node, answer) -> {
            List<MeasuredLaunches.Pending> mine = byNode.get(node);
            try {
                MeasureCollection c = answer.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                sort(node, mine, c, launches, missing, running);
            } catch (TimeoutException e) {
                answer.cancel(true);
                lose(atEnd, mine, mine.size() + " launch(es) on " + FleetProbes.nameOf(node) + ": the agent did not answer within "
                        + ((atEnd ? WAIT_SECONDS : 0) + ANSWER_SECONDS) + " s (hung, or its connection too slow)", missing, running);
            } catch (ExecutionException e) {
                lose(atEnd, mine, mine.size() + " launch(es) on " + FleetProbes.nameOf(node) + ": " + e.getCause(), missing, running);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                lose(atEnd, mine, mine.size() + " launch(es) on " + FleetProbes.nameOf(node) + ": interrupted while collecting", missing,
                        running);
            }
        });
        return new Gathered(launches, missing, running);
    }

    /** Sends the node its question; returns why it cannot be asked, or null. */
    private static String ask(final String node, final List<MeasuredLaunches.Pending> mine, final boolean atEnd,
            final Map<String, Future<MeasureCollection>> asked) {
        Computer c = node.isEmpty() ? Jenkins.get().toComputer() : Jenkins.get().getComputer(node);
        VirtualChannel channel = c == null ? null : c.getChannel();
        if (channel == null) {
            return "the agent is offline";
        }
        try {
            asked.put(node, channel.callAsync(new AgentCalls.CollectMeasures(mine.stream().map(p -> p.id).toList(),
                    atEnd ? WAIT_SECONDS : 0, atEnd)));
            return null;
        } catch (IOException | RuntimeException e) {
            return e.getMessage();
        }
    }

    private static void sort(final String node, final List<MeasuredLaunches.Pending> mine, final MeasureCollection c,
            final List<MeasureResult.Launch> launches, final List<String> missing, final List<MeasuredLaunches.Pending> running) {
        Map<String, MeasureRecord> byId = new LinkedHashMap<>();
        c.records().forEach(r -> byId.put(r.id(), r));
        Map<String, String> labels = new LinkedHashMap<>();
        for (MeasuredLaunches.Pending p : mine) {
            labels.put(p.id, p.label);
            MeasureRecord r = byId.get(p.id);
            if (r != null) {
                launches.add(new MeasureResult.Launch(node, p.policy, r, p.stage, p.branch, p.step));
            } else if (c.running().contains(p.id)) {
                running.add(p);
            }
        }
        missing.addAll(MeasureCollection.lostLines(c.lost(), labels::get, FleetProbes.nameOf(node)));
    }

    /** At the end a launch that could not be collected is lost, in words; as the build goes it is asked for again. */
    private static void lose(final boolean atEnd, final List<MeasuredLaunches.Pending> mine, final String why,
            final List<String> missing, final List<MeasuredLaunches.Pending> running) {
        if (atEnd) {
            missing.add(why);
        } else {
            running.addAll(mine);
        }
    }

}
