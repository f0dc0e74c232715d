package dev.schedpolicy.engine.report;

import java.util.List;

/** A small hand-made report for renderer tests. */
final class ReportFixtures {
    static final String EVIL = "<script>alert('x')</script>";

    private ReportFixtures() {
    }

    static BenchReport report(final String victim) {
        return report(victim, false);
    }

    /**
     * With {@code wideCi}, default at load 2 has kept samples 5, 40, 75: a 95% CI of 40 ± 87, whose whisker runs
     * from below 0 to above 105, out of every chart's plot area.
     */
    static BenchReport report(final String victim, final boolean wideCi) {
        List<String> policies = List.of("default", "nice19", "idle");
        List<Double> loads = List.of(1.0, 2.0);
        List<BenchReport.Cell> cells = new java.util.ArrayList<>();
        double[][] kept = {{62, 40}, {93, 91}, {95, 93}};
        for (String topology : List.of("same-group", "other-cgroup")) {
        for (int p = 0; p < 3; p++) {
            for (int l = 0; l < 2; l++) {
                double k = topology.equals("same-group") ? kept[p][l] : kept[0][l] + p;
                Stat keptStat = wideCi && p == 0 && l == 1 ? Stat.of(List.of(5.0, 40.0, 75.0)) : Stat.of(List.of(k - 1, k, k + 1));
                cells.add(new BenchReport.Cell(policies.get(p), loads.get(l), topology, 2 * (l + 1), 1, false, "background: " + EVIL,
                        keptStat, Stat.of(List.of(100 - k, 100 - k)),
                        new BenchReport.Latency(60 + p, 400 + l, 900, 2000 * (l + 1), 10_000), Stat.of(List.of(5000.0, 5100.0)),
                        "loops/s", Stat.of(List.of(90.0 - p, 92.0 - p)), null, Stat.of(List.of(97.0, 98.0)),
                        Stat.of(List.of(30.0, 31.0)), null, Stat.of(List.of(1.1, 1.2)), Stat.of(List.of(1.0, 2.0)), null));
            }
        }
        }
        return new BenchReport(BenchReport.SCHEMA_VERSION, "schedpolicy", false, null,
                new BenchReport.ScenarioInfo("seed-cpu-looper", "Fixed-work CPU victim", "desc " + EVIL, "expect", "workloads/x",
                        victim, "cpu-looper", "BACKGROUND", "BACKGROUND", "keptPct"),
                new BenchReport.Machine("host", 2, "6.18", "amd64", "17", true, 0.5, "same session"),
                new BenchReport.Run("2025-01-01T00:00:00Z", "2025-01-01T00:01:00Z", 60, "quick", 3, 1, 42, 1000, 4000.0, 19, 19),
                List.of(new BenchReport.Verdict("same-group", List.of(), List.of(new BenchReport.Shortfall("default",
                        "victim 40.0% at load 2"), new BenchReport.Shortfall("nice19", "victim 91.0% at load 2"),
                        new BenchReport.Shortfall("idle", "victim 93.0% at load 2"))),
                        new BenchReport.Verdict("other-cgroup", List.of(), List.of(new BenchReport.Shortfall(EVIL, "x")))),
                policies, loads, List.of("same-group", "other-cgroup"), new BenchReport.Baseline(Stat.of(List.of(4000.0, 4010.0)), Stat.of(List.of(1000.0, 999.0)), null,
                        "units/s per worker"), cells, List.of("warning " + EVIL));
    }
}
