package dev.schedpolicy.engine.fleet;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A benchmark's verdict for one topology, read back from its report.json (schema 2 has them; older reports have none):
 * which policies kept the test job and the background within the targets at every load, and which missed and where.
 *
 * @param topology e.g. "same-session", "other-cgroup"
 * @param protect  the policies that met both targets, e.g. "cpu-idle (CI ±0.4)"
 * @param fail     the policies that missed, each with where, e.g. "idle (victim 45.1% at load 2)"
 */
public record TopologyVerdict(String topology, List<String> protect, List<String> fail) {
    private static final ObjectMapper JSON = new ObjectMapper();

    public TopologyVerdict {
        protect = List.copyOf(protect);
        fail = List.copyOf(fail);
    }

    /**
     * The report's verdicts for the topologies where at least one policy was measured; empty for a report without any
     * (schema 1, or a run aborted before its first cell).
     */
    public static List<TopologyVerdict> fromReport(final String reportJson) {
        JsonNode root;
        try {
            root = JSON.readTree(reportJson);
        } catch (IOException e) {
            throw new IllegalArgumentException("the benchmark report is not valid JSON: " + e.getMessage(), e);
        }
        List<TopologyVerdict> out = new ArrayList<>();
        for (JsonNode v : root.path("verdicts")) {
            List<String> protect = new ArrayList<>();
            v.path("protect").forEach(p -> protect.add(p.asText()));
            List<String> fail = new ArrayList<>();
            v.path("fail").forEach(f -> fail.add(f.path("policy").asText() + " (" + f.path("reason").asText() + ")"));
            if (protect.isEmpty() && fail.isEmpty()) {
                continue; // nothing measured there (an aborted run): "no policy protects" would be a claim it never tested
            }
            out.add(new TopologyVerdict(v.path("topology").asText("?"), protect, fail));
        }
        return out;
    }

    /** One line, as the benchmark's own report words it: "other-cgroup: protect cpu-idle; fail idle (victim 45.1% at load 2)". */
    public String line() {
        return topology + ": " + (protect.isEmpty() ? "no policy protects" : "protect " + String.join(", ", protect))
                + (fail.isEmpty() ? "" : "; fail " + String.join(", ", fail));
    }
}
