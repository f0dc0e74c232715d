package dev.schedpolicy.engine.bench;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.List;

/**
 * A victim's result line (see workload/Protocol), read once into types. A victim command has no such line:
 * the runner builds its result from what it sampled in /proc.
 *
 * @param workers    threads that did the work
 * @param units      kernel units done (a command: 1 run)
 * @param workNs     wall time of the work
 * @param cpuNs      CPU the work threads used
 * @param runQueueNs run-queue wait of the work threads
 * @param latencyUs  wakeup latency of a periodic victim, else null
 * @param threads    per worker thread, else empty
 */
@JsonIgnoreProperties(ignoreUnknown = true)
record VictimResult(int workers, double units, double workNs, double cpuNs, double runQueueNs, Latency latencyUs,
        List<Thread> threads) {
    private static final ObjectMapper JSON = new ObjectMapper();

    VictimResult {
        workers = Math.max(1, workers);
        threads = threads == null ? List.of() : List.copyOf(threads);
    }

    static VictimResult parse(final String line) throws IOException {
        return JSON.readValue(line, VictimResult.class);
    }

    /** Work units per worker per second. */
    double rate() {
        return units / workers / (workNs / 1e9);
    }

    /**
     * Wakeup latency in microseconds.
     *
     * @param histogram the HdrHistogram of all wakeups, compressed and base64-encoded
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record Latency(double p50, double p99, double p999, double max, long count, String histogram) {
    }

    /** One worker thread's share, from its own schedstat. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record Thread(String name, double units, double wallNs, double onCpuNs, double runQueueNs, double timeslices) {
    }
}
