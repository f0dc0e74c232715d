package dev.schedpolicy.jenkins;

import dev.schedpolicy.engine.buildpage.BenchmarkSummary;
import java.io.Serial;
import java.io.Serializable;

/** The benchmark's report.json as the engine wrote it, plus the gate's verdict; persisted by {@link BenchmarkBuildAction}. */
public final class BenchmarkResult implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;

    private final String json;
    private final String gateMessage;
    /** The node it ran on ("" for the built-in node); null in results stored before the fleet view read it. */
    private final String nodeName;
    /** The topology the gate was asked to judge; null for each policy's own (and in results stored before it was kept). */
    private final String gateTopology;

    BenchmarkResult(final String json, final String gateMessage) {
        this(json, gateMessage, null);
    }

    BenchmarkResult(final String json, final String gateMessage, final String nodeName) {
        this(json, gateMessage, nodeName, null);
    }

    BenchmarkResult(final String json, final String gateMessage, final String nodeName, final String gateTopology) {
        this.json = json;
        this.gateMessage = gateMessage;
        this.nodeName = nodeName;
        this.gateTopology = gateTopology;
    }

    /** The topology the gate was asked to judge, null for each policy's own; the trend follows it. */
    public String getGateTopology() {
        return gateTopology;
    }

    /** The node the benchmark ran on: "" for the built-in node, null when not recorded (older builds). */
    public String getNodeName() {
        return nodeName;
    }

    public String getJson() {
        return json;
    }

    public String getGateMessage() {
        return gateMessage;
    }

    /** @throws IllegalArgumentException when the JSON is of an unsupported schema */
    public BenchmarkSummary summary() {
        return BenchmarkSummary.fromJson(json);
    }
}
