package dev.schedpolicy.engine.buildpage;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The job page's trend: per policy, the test job's worst kept % in each build's benchmark, in the topology the gate
 * judges that policy in ({@link BenchmarkGate#topologyFor}). A build that benchmarks
 * several nodes (a {@code parallel} over agents) has one benchmark per node; each gets its own series ("idle on
 * agent-1"), so none hides behind the first. Where every build benchmarked one node only, the series are named by
 * policy alone, as before.
 */
public final class BenchmarkTrend {
    private BenchmarkTrend() {
    }

    /**
     * One benchmark of a build.
     *
     * @param gateTopology the topology the step was asked to judge (gateTopology), or null
     */
    public record Measured(BenchmarkSummary summary, String gateTopology) {
    }

    /**
     * One build's benchmarks.
     *
     * @param byNode the node's name (as the build page shows it) to its benchmark, in the order they ran
     */
    public record Build(String label, int number, Map<String, Measured> byNode) {
        public Build {
            byNode = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(byNode));
        }
    }

    /** A line of the chart: its name and one whole percent per build (0 where the build did not measure it). */
    public record Series(String name, List<Integer> values) {
        public Series {
            values = List.copyOf(values);
        }
    }

    /** The series over {@code oldestFirst}, by node in the order first seen, then by policy. */
    public static List<Series> series(final List<Build> oldestFirst) {
        Set<String> nodes = new LinkedHashSet<>();
        oldestFirst.forEach(b -> nodes.addAll(b.byNode().keySet()));
        boolean several = nodes.size() > 1;
        List<Series> out = new ArrayList<>();
        for (String node : nodes) {
            Set<String> policies = new LinkedHashSet<>();
            oldestFirst.forEach(b -> {
                Measured m = b.byNode().get(node);
                if (m != null) {
                    policies.addAll(m.summary().policies());
                }
            });
            for (String policy : policies) {
                List<Integer> values = new ArrayList<>();
                for (Build b : oldestFirst) {
                    Measured m = b.byNode().get(node);
                    values.add(m == null ? 0 : (int) Math.round(m.summary()
                            .worstKept(policy, BenchmarkGate.topologyFor(policy, m.gateTopology(), m.summary())).orElse(0)));
                }
                out.add(new Series(several ? policy + " on " + node : policy, values));
            }
        }
        return out;
    }
}
