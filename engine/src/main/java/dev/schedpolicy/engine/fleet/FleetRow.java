package dev.schedpolicy.engine.fleet;

import java.util.Comparator;
import java.util.List;

/**
 * One agent on the fleet view: what Jenkins knows of it (name, labels, online, the default policy in force) and what its
 * last probe found.
 *
 * @param node               the node's name ("built-in" for the controller's own)
 * @param builtIn            whether it is the built-in node
 * @param labels             its labels
 * @param online             whether it is connected now
 * @param probe              its last probe, or null when it was never probed
 * @param probing            whether a probe is under way now
 * @param agentDefault       the compact default policy for every launch there, or null for none
 * @param agentDefaultSource where that default comes from: "node property", "global configuration" or "none"
 * @param verdicts           the newest benchmark verdict per topology measured there
 */
public record FleetRow(String node, boolean builtIn, List<String> labels, boolean online, ProbeResult probe, boolean probing,
        String agentDefault, String agentDefaultSource, List<NodeVerdict> verdicts) {

    /**
     * Agents that need an administrator first (builds there cannot protect across task groups), then those nothing is
     * known of, then the rest; by name within each, the built-in node first.
     */
    public static final Comparator<FleetRow> ORDER = Comparator.comparingInt(FleetRow::rank)
            .thenComparing(r -> !r.builtIn()).thenComparing(FleetRow::node);

    public FleetRow {
        labels = List.copyOf(labels);
        verdicts = List.copyOf(verdicts);
    }

    /** The summary of the last successful probe, or null. */
    public AgentSummary summary() {
        return probe == null ? null : probe.summary();
    }

    public boolean standsOut() {
        return summary() != null && summary().standsOut();
    }

    private int rank() {
        return standsOut() ? 0 : summary() == null ? 1 : 2;
    }

    /** The probe's state in words: "probed 12 s ago (took 0.9 s)", "probe failed 3 s ago: ...", "never probed". */
    public String probeState(final long nowMillis) {
        String now = probing ? "probing now; " : "";
        if (probe == null) {
            return now + "never probed" + (online ? "" : " (offline)");
        }
        String age = Durations.words(probe.ageSeconds(nowMillis)) + " ago";
        if (probe.error() != null) {
            return now + "probe failed " + age + ": " + probe.error();
        }
        return now + "probed " + age + " (took " + Durations.seconds(probe.tookMillis()) + ")";
    }
}
