package dev.schedpolicy.engine.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;
import java.util.Optional;

/**
 * The benchmark's result, as written to report.json (schema documented in docs/benchmark.md). Readers
 * (the Jenkins plugin, trend charts) must check {@link #schemaVersion()}: fields are only ever added
 * within one major version; a removal or change of meaning bumps it.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"schemaVersion", "tool", "partial", "partialReason", "scenario", "machine", "run", "policies",
        "loads", "baseline", "cells", "warnings"})
public record BenchReport(int schemaVersion, String tool, boolean partial, String partialReason, ScenarioInfo scenario,
        Machine machine, Run run, List<String> policies, List<Double> loads, Baseline baseline, List<Cell> cells,
        List<String> warnings) {

    public static final int SCHEMA_VERSION = 1;

    public BenchReport {
        policies = List.copyOf(policies);
        loads = List.copyOf(loads);
        cells = List.copyOf(cells);
        warnings = List.copyOf(warnings);
    }

    /** What was measured. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ScenarioInfo(String name, String title, String description, String expect, String source,
            String victim, String background, String policyTarget, String loadAxis, String metric) {
    }

    /** Where it was measured. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Machine(String hostname, int cpus, String kernel, String arch, String javaVersion,
            Boolean autogroup, Double loadAverageAtStart, String taskGroupNote) {
    }

    /** How it was measured. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Run(String startedAt, String finishedAt, double durationSeconds, String preset, int repetitions,
            int warmup, long seed, long victimDurationMs, Double calibrationUnitsPerSecond, int cellsPlanned,
            int cellsDone) {
    }

    /** The unloaded victim (default policy, no background) that kept % is relative to. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Baseline(Stat victimRate, Stat victimWorkMs, Stat backgroundRate, String rateUnit) {
    }

    /**
     * One policy x load cell, aggregated over its repetitions. Metrics that do not apply to the scenario are
     * absent (null): e.g. latency only for periodic victims, throttling only for quota policies.
     *
     * @param keptPct               victim work rate as % of the unloaded baseline (mean, 95% CI)
     * @param runQueueSharePct      victim's run-queue wait / (on-CPU + wait), from schedstat
     * @param latencyUs             wakeup latency percentiles of periodic victims (mean over repetitions; max = max)
     * @param backgroundRate        background work per second (see backgroundUnit)
     * @param backgroundFreeCpuPct  background CPU as % of the CPU the victim left free
     * @param backgroundOfOneCpuPct background work rate as % of one unrestricted background thread
     * @param totalCpuPct           (victim + background CPU) / (ncpu x wall)
     * @param psiCpuSomePct         share of the window in which some task waited for a CPU (/proc/pressure/cpu)
     * @param throttledPct          share of quota periods throttled (cgroup cpu.stat), quota policies only
     * @param wallOverCpu           victim wall time x workers / victim CPU time ("real over user")
     * @param accountingGapPct      ncpu x wall - (victim + background + idle), as % of ncpu x wall
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Cell(String policy, double load, int backgroundCopies, int victimWorkers, boolean fromBaseline,
            String applied, Stat keptPct, Stat runQueueSharePct, Latency latencyUs, Stat backgroundRate,
            String backgroundUnit, Stat backgroundFreeCpuPct, Stat backgroundOfOneCpuPct, Stat totalCpuPct,
            Stat psiCpuSomePct, Stat throttledPct, Stat wallOverCpu, Stat accountingGapPct,
            List<ThreadDetail> threads) {
    }

    /** Wakeup latency percentiles in microseconds. */
    public record Latency(double p50, double p99, double p999, double max) {
    }

    /** Per victim thread (thread-eater): steps per ms, average time slice and run-queue time, from schedstat. */
    public record ThreadDetail(String name, double stepsPerMs, double avgSliceMs, double runQueueMs, double onCpuMs) {
    }

    public Optional<Cell> cell(final String policy, final double load) {
        return cells.stream().filter(c -> c.policy().equals(policy) && c.load() == load).findFirst();
    }
}
