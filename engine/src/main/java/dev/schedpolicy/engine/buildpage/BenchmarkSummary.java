package dev.schedpolicy.engine.buildpage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.schedpolicy.engine.report.BenchReport;

import java.io.IOException;
import java.io.Serial;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;

/**
 * The parts of a benchmark report.json (schema version 1) that the Jenkins build page, detail page,
 * trend chart and gate show, read from the JSON tree so the reader keeps working when fields are
 * added. Built on the controller from the stored JSON; never crosses remoting.
 */
public final class BenchmarkSummary implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;
    private static final ObjectMapper JSON = new ObjectMapper();
    public static final int SUPPORTED_SCHEMA = 2;

    private final String scenario;
    private final String title;
    private final boolean partial;
    private final String partialReason;
    private final int cpus;
    private final double durationSeconds;
    private final ArrayList<String> policies;
    private final ArrayList<Double> loads;
    /** [policy][load] mean kept %, NaN when the cell is missing. */
    private final double[][] kept;
    private final double[][] keptCi;
    private final double[][] backgroundFree;
    private final ArrayList<String> warnings;
    /** Schema 2: where the background sat, in report order; empty for schema 1. */
    private final ArrayList<String> topologies;
    /** Schema 2: [policy][load] mean kept % and CI of one topology. */
    private final HashMap<String, double[][]> keptIn = new HashMap<>();
    private final HashMap<String, double[][]> keptCiIn = new HashMap<>();
    private final ArrayList<TopologyVerdict> verdicts;

    /**
     * The report's answer for one topology, as the pages print it.
     *
     * @param topology e.g. {@code same-agent}
     * @param heading  the question it answers with what the topology means, or the topology alone in older reports
     * @param outcome  e.g. "protect idle, cpu-idle; fail default (victim 61.2% at load 1)"
     * @param note     what limits the answer on this machine (e.g. no idle parent yet), or null
     */
    public record TopologyVerdict(String topology, String heading, String outcome, String note) implements Serializable {
    }

    private BenchmarkSummary(final JsonNode root) {
        int schema = root.path("schemaVersion").asInt(-1);
        if (schema < 1 || schema > SUPPORTED_SCHEMA) {
            throw new IllegalArgumentException("benchmark report schema version " + schema + " is not supported; this reader knows "
                    + SUPPORTED_SCHEMA);
        }
        scenario = root.path("scenario").path("name").asText("");
        title = root.path("scenario").path("title").asText("");
        partial = root.path("partial").asBoolean(false);
        partialReason = root.path("partialReason").asText(null);
        cpus = root.path("machine").path("cpus").asInt(0);
        durationSeconds = root.path("run").path("durationSeconds").asDouble(0);
        policies = new ArrayList<>();
        root.path("policies").forEach(p -> policies.add(p.asText()));
        loads = new ArrayList<>();
        root.path("loads").forEach(l -> loads.add(l.asDouble()));
        kept = grid();
        keptCi = grid();
        backgroundFree = grid();
        topologies = new ArrayList<>();
        root.path("topologies").forEach(t -> topologies.add(t.asText()));
        for (JsonNode cell : root.path("cells")) {
            int p = policies.indexOf(cell.path("policy").asText());
            int l = loads.indexOf(cell.path("load").asDouble());
            if (p < 0 || l < 0) {
                continue;
            }
            double k = number(cell.path("keptPct").path("mean"));
            String topology = cell.path("topology").asText("");
            if (topologies.contains(topology)) {
                keptIn.computeIfAbsent(topology, t -> grid())[p][l] = k;
                keptCiIn.computeIfAbsent(topology, t -> grid())[p][l] = number(cell.path("keptPct").path("ciHalfWidth"));
            }
            if (!Double.isNaN(kept[p][l]) && !(k < kept[p][l])) {
                continue; // several topologies (schema 2): the worst one counts, so a gate stays on the safe side
            }
            kept[p][l] = k;
            keptCi[p][l] = number(cell.path("keptPct").path("ciHalfWidth"));
            backgroundFree[p][l] = number(cell.path("backgroundFreeCpuPct").path("mean"));
        }
        warnings = new ArrayList<>();
        root.path("warnings").forEach(w -> warnings.add(w.asText()));
        verdicts = new ArrayList<>();
        root.path("verdicts").forEach(v -> verdicts.add(verdict(v)));
    }

    /** The report's own wording ({@link BenchReport.Verdict#heading()}, {@link BenchReport.Verdict#outcome()}). */
    private static TopologyVerdict verdict(final JsonNode v) {
        List<String> protect = new ArrayList<>();
        v.path("protect").forEach(p -> protect.add(p.asText()));
        List<BenchReport.Shortfall> fail = new ArrayList<>();
        v.path("fail").forEach(f -> fail.add(new BenchReport.Shortfall(f.path("policy").asText(), f.path("reason").asText())));
        BenchReport.Verdict verdict = new BenchReport.Verdict(v.path("topology").asText(""), protect, fail,
                v.path("title").asText(null), v.path("meaning").asText(null), v.path("note").asText(null), null, null, null);
        return new TopologyVerdict(verdict.topology(), verdict.heading(), verdict.outcome(), verdict.note());
    }

    private double[][] grid() {
        double[][] g = new double[policies.size()][loads.size()];
        for (double[] row : g) {
            java.util.Arrays.fill(row, Double.NaN);
        }
        return g;
    }

    private static double number(final JsonNode n) {
        return n.isNumber() ? n.asDouble() : Double.NaN;
    }

    /** @throws IllegalArgumentException when the text is not a report this reader understands */
    public static BenchmarkSummary fromJson(final String json) {
        try {
            return new BenchmarkSummary(JSON.readTree(json));
        } catch (IOException e) {
            throw new IllegalArgumentException("the benchmark result is not valid JSON: " + e.getMessage(), e);
        }
    }

    public String scenario() {
        return scenario;
    }

    public String title() {
        return title;
    }

    public boolean partial() {
        return partial;
    }

    public String partialReason() {
        return partialReason;
    }

    public int cpus() {
        return cpus;
    }

    public double durationSeconds() {
        return durationSeconds;
    }

    public List<String> policies() {
        return List.copyOf(policies);
    }

    public List<Double> loads() {
        return List.copyOf(loads);
    }

    public List<String> warnings() {
        return List.copyOf(warnings);
    }

    /** The topologies the report measured, in its order; empty for a report without topologies (schema 1). */
    public List<String> topologies() {
        return List.copyOf(topologies);
    }

    /** The report's verdict per topology; empty when it has none. */
    public List<TopologyVerdict> verdicts() {
        return List.copyOf(verdicts);
    }

    /** {@link #keptText(String, double)} of one topology's cell. */
    public String keptText(final String topology, final String policy, final double load) {
        double[][] k = keptIn.get(topology);
        double[][] ci = keptCiIn.get(topology);
        return k == null ? "–" : keptText(cell(k, policy, load), cell(ci, policy, load));
    }

    /** Mean kept % of the victim for a cell (the worst topology's when there are several); NaN when absent. */
    public double kept(final String policy, final double load) {
        return cell(kept, policy, load);
    }

    public double keptCi(final String policy, final double load) {
        return cell(keptCi, policy, load);
    }

    public double backgroundFree(final String policy, final double load) {
        return cell(backgroundFree, policy, load);
    }

    private double cell(final double[][] grid, final String policy, final double load) {
        int p = policies.indexOf(policy);
        int l = loads.indexOf(load);
        return p < 0 || l < 0 ? Double.NaN : grid[p][l];
    }

    /** The lowest mean kept % of a policy over all loads (its worst case); empty when it has no cell. */
    public OptionalDouble worstKept(final String policy) {
        int p = policies.indexOf(policy);
        if (p < 0) {
            return OptionalDouble.empty();
        }
        return java.util.Arrays.stream(kept[p]).filter(Double::isFinite).min();
    }

    /**
     * The lowest mean kept % of a policy over all loads in one topology; {@link #worstKept(String)} when
     * {@code topology} is null (a report of one topology); empty when the policy has no cell there.
     */
    public OptionalDouble worstKept(final String policy, final String topology) {
        if (topology == null) {
            return worstKept(policy);
        }
        int p = policies.indexOf(policy);
        double[][] k = keptIn.get(topology);
        if (p < 0 || k == null) {
            return OptionalDouble.empty();
        }
        return java.util.Arrays.stream(k[p]).filter(Double::isFinite).min();
    }

    /** "93.1 ± 1.2" or "–" for a missing cell. */
    public String keptText(final String policy, final double load) {
        return keptText(kept(policy, load), keptCi(policy, load));
    }

    private static String keptText(final double m, final double ci) {
        if (!Double.isFinite(m)) {
            return "–";
        }
        return String.format(Locale.ROOT, Double.isFinite(ci) && ci > 0 ? "%.1f ± %.1f" : "%.1f", m, ci);
    }

    /** Load axis label for pages: "1", "0.5". */
    public String loadText(final double load) {
        return loadLabel(load);
    }

    /** Load axis label: "1", "0.5". */
    public static String loadLabel(final double load) {
        return load == Math.rint(load) ? Long.toString((long) load) : Double.toString(load);
    }

    /**
     * Data for the charts, as JSON: {@code {"loads":["1","2"],"series":[{"policy":"idle","kept":[95.0,92.1],
     * "backgroundFree":[88.0,90.0]}]}}; missing cells are null.
     */
    public String chartData() {
        ObjectNode root = JSON.createObjectNode();
        ArrayNode l = root.putArray("loads");
        loads.forEach(x -> l.add(loadLabel(x)));
        ArrayNode series = root.putArray("series");
        for (int p = 0; p < policies.size(); p++) {
            ObjectNode s = series.addObject();
            s.put("policy", policies.get(p));
            ArrayNode k = s.putArray("kept");
            ArrayNode b = s.putArray("backgroundFree");
            for (int i = 0; i < loads.size(); i++) {
                addOrNull(k, kept[p][i]);
                addOrNull(b, backgroundFree[p][i]);
            }
        }
        return root.toString();
    }

    private static void addOrNull(final ArrayNode a, final double v) {
        if (Double.isFinite(v)) {
            a.add(Math.round(v * 10) / 10.0);
        } else {
            a.addNull();
        }
    }
}
