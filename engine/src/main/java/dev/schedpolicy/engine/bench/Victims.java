package dev.schedpolicy.engine.bench;

import java.io.BufferedReader;
import java.util.List;

/**
 * Started built-in victims that said READY and wait for GO.
 *
 * @param started   one process per copy
 * @param readers   their stdout
 * @param timeoutMs how long a victim may take to answer before the watchdog kills it
 */
record Victims(List<ProcessStarter.Started> started, List<BufferedReader> readers, long timeoutMs) {
    static final Victims NONE = new Victims(List.of(), List.of(), 0);

    Victims {
        started = List.copyOf(started);
        readers = List.copyOf(readers);
    }

    long cpuNs(final SystemSampler sampler) {
        return started.stream().mapToLong(v -> sampler.treeCpuNs(v.process().pid())).sum();
    }
}
