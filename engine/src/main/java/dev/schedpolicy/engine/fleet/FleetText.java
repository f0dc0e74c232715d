package dev.schedpolicy.engine.fleet;

import dev.schedpolicy.engine.probe.Capability;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The fleet view as plain text, for scripts and terminals: a header line with the count that stands out, one table line
 * per agent, then indented detail lines (probe state, policy parts, fix, benchmark verdicts). A script can grep
 * {@code ^STANDS-OUT } lines, or use the JSON API for anything more.
 */
public final class FleetText {
    private static final String[] HEADER = {"NODE", "STATE", "KERNEL", "LAYOUT", "CPU-CGROUPS", "IDLE-PARENT", "REACH",
        "RECOMMENDED", "DEFAULT"};

    private FleetText() {
    }

    public static String render(final List<FleetRow> rows, final long nowMillis) {
        long out = rows.stream().filter(FleetRow::standsOut).count();
        StringBuilder text = new StringBuilder();
        text.append("Sched Policy fleet: ").append(rows.size()).append(rows.size() == 1 ? " node, " : " nodes, ").append(out)
                .append(" cannot protect test jobs in other task groups\n");
        List<String[]> table = new ArrayList<>();
        table.add(HEADER);
        rows.forEach(r -> table.add(cells(r)));
        int[] widths = new int[HEADER.length];
        for (String[] line : table) {
            for (int i = 0; i < line.length; i++) {
                widths[i] = Math.max(widths[i], line[i].length());
            }
        }
        for (int i = 0; i < table.size(); i++) {
            String[] line = table.get(i);
            StringBuilder l = new StringBuilder(i == 0 ? "           " : rows.get(i - 1).standsOut() ? "STANDS-OUT " : "ok         ");
            for (int c = 0; c < line.length; c++) {
                l.append(c == line.length - 1 ? line[c] : String.format(Locale.ROOT, "%-" + (widths[c] + 2) + "s", line[c]));
            }
            text.append(l.toString().stripTrailing()).append('\n');
            if (i > 0) {
                details(rows.get(i - 1), nowMillis).forEach(d -> text.append("             ").append(d).append('\n'));
            }
        }
        return text.toString();
    }

    private static String[] cells(final FleetRow r) {
        AgentSummary s = r.summary();
        String state = r.online() ? "online" : "offline";
        String defaults = r.agentDefault() == null ? "none" : r.agentDefault() + " (" + r.agentDefaultSource() + ")";
        if (s == null) {
            return new String[] {r.node(), state, "?", "?", "?", "?", "?", "?", defaults};
        }
        String parent = !s.idleParent().exists() ? "absent" : s.idleParent().usable() ? "usable" : "not-usable";
        String recommended = s.recommended();
        return new String[] {r.node(), state, s.kernel(), s.layout(), s.cpuControllerWritable() ? "writable" : "not-writable",
            parent, s.reach().name().toLowerCase(Locale.ROOT).replace('_', '-'), recommended, defaults};
    }

    private static List<String> details(final FleetRow r, final long nowMillis) {
        List<String> d = new ArrayList<>();
        d.add("probe: " + r.probeState(nowMillis));
        AgentSummary s = r.summary();
        if (s != null) {
            d.add("user " + s.user() + ", " + s.cpus() + " CPUs, " + s.taskGroup() + ", autogroup " + (s.autogroup() ? "on" : "off")
                    + ", " + s.otherProcesses() + " processes in other task groups");
            d.add("parts: " + s.capabilities().stream().map(FleetText::part)
                    .collect(Collectors.joining(", ")));
            d.add("builds yield to: " + s.reach().words());
            d.add("why " + s.recommendation().policy() + ": " + s.recommendation().reason());
            if (s.fix() != null) {
                d.add("fix: " + (s.fix().command() == null ? "" : s.fix().command() + "  # ") + s.fix().reason());
            }
        }
        for (NodeVerdict v : r.verdicts()) {
            d.add("benchmark " + v.verdict().line() + " [" + v.build() + "]");
        }
        return d;
    }

    /** "nice yes": one part the probe tried, as a word a script can match. */
    private static String part(final Capability c) {
        return c.name() + (c.usable() ? " yes" : " no");
    }
}
