package dev.schedpolicy.engine.fleet;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The top of the fleet view: how many agents protect test jobs in other task groups, how many cannot, how many are not
 * known, and the few distinct fixes, each with the agents it applies to. On a fleet of 1,000 agents set up by a handful of
 * recipes the fixes are a handful too; the rows below are for finding one agent.
 *
 * @param nodes    rows counted
 * @param protect  agents whose builds protect across task groups
 * @param cannot   agents whose builds cannot (each has a fix)
 * @param unknown  agents never probed, or whose last probe failed
 * @param offline  agents not connected now (counted in the others by their last probe as well)
 * @param fixes    the distinct fixes, the one for most agents first
 */
public record FleetSummary(int nodes, int protect, int cannot, int unknown, int offline, List<FixGroup> fixes) {
    public FleetSummary {
        fixes = List.copyOf(fixes);
    }

    /**
     * One fix and the agents it applies to.
     *
     * @param id      a short stable key for the view's filter ({@code ?fix=ID})
     * @param title   the fix in a few words
     * @param command the command to run on each agent's machine, or null when no command does it
     * @param example the first agent's reason, named: the others' differ only in their details
     * @param nodes   the agents, by name
     */
    public record FixGroup(String id, String title, String command, String example, List<String> nodes) {
        public FixGroup {
            nodes = List.copyOf(nodes);
        }

        /** The first {@code n} agents' names, then how many more: "a, b, c and 997 more". */
        public String nodesWords(final int n) {
            String first = String.join(", ", nodes.subList(0, Math.min(n, nodes.size())));
            return nodes.size() <= n ? first : first + " and " + (nodes.size() - n) + " more";
        }
    }

    public static FleetSummary of(final List<FleetRow> rows) {
        int protect = 0;
        int cannot = 0;
        int unknown = 0;
        int offline = 0;
        Map<String, List<FleetRow>> byFix = new LinkedHashMap<>();
        for (FleetRow r : rows.stream().sorted(Comparator.comparing(FleetRow::node)).toList()) {
            offline += r.online() ? 0 : 1;
            AgentSummary s = r.summary();
            if (s == null) {
                unknown++;
            } else if (s.standsOut()) {
                cannot++;
                byFix.computeIfAbsent(fixId(s.fix()), k -> new ArrayList<>()).add(r);
            } else {
                protect++;
            }
        }
        List<FixGroup> fixes = new ArrayList<>();
        byFix.forEach((id, agents) -> {
            Fix f = agents.get(0).summary().fix();
            fixes.add(new FixGroup(id, f.title(), f.command(), agents.get(0).node() + ": " + f.reason(),
                    agents.stream().map(FleetRow::node).toList()));
        });
        fixes.sort(Comparator.comparingInt((FixGroup g) -> -g.nodes().size()).thenComparing(FixGroup::title));
        return new FleetSummary(rows.size(), protect, cannot, unknown, offline, fixes);
    }

    /** The fix's key: its title and command (String.hashCode is the same in every JVM, so links stay valid). */
    static String fixId(final Fix fix) {
        return String.format(Locale.ROOT, "%08x", (fix.title() + '\0' + fix.command()).hashCode());
    }
}
