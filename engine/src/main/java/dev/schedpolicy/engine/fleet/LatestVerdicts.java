package dev.schedpolicy.engine.fleet;

import dev.schedpolicy.engine.scenario.Topology;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Keeps, per agent and topology, the newest benchmark verdict among the builds offered in any order (the plugin walks
 * jobs one after the other, each newest first). Not thread-safe: one per page rendering.
 */
public final class LatestVerdicts {
    private final Map<String, Map<String, NodeVerdict>> byNode = new TreeMap<>();

    /** Offers one build's report; a report that cannot be read offers nothing (its build page says why). */
    public void offer(final String node, final String build, final String buildUrl, final long timeMillis,
            final String reportJson) {
        List<TopologyVerdict> verdicts;
        try {
            verdicts = TopologyVerdict.fromReport(reportJson);
        } catch (IllegalArgumentException e) {
            return;
        }
        Map<String, NodeVerdict> mine = byNode.computeIfAbsent(node, n -> new TreeMap<>());
        for (TopologyVerdict v : verdicts) {
            NodeVerdict known = mine.get(v.topology());
            if (known == null || known.timeMillis() < timeMillis) {
                mine.put(v.topology(), new NodeVerdict(v, build, buildUrl, timeMillis));
            }
        }
    }

    /**
     * The node's newest verdict per topology, in the order bench asks its questions (the agent's own executors
     * first, as on the build page); ids this engine does not know last, by name.
     */
    public List<NodeVerdict> forNode(final String node) {
        List<NodeVerdict> out = new ArrayList<>(byNode.getOrDefault(node, Map.of()).values());
        out.sort(Comparator.comparingInt((NodeVerdict v) -> questionOrder(v.verdict().topology()))
                .thenComparing(v -> v.verdict().topology()));
        return out;
    }

    private static int questionOrder(final String topology) {
        try {
            return Topology.parse(topology).ordinal();
        } catch (IllegalArgumentException e) {
            return Integer.MAX_VALUE;
        }
    }
}
