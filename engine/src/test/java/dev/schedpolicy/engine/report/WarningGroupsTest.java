package dev.schedpolicy.engine.report;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

class WarningGroupsTest {
    private static final String CI = "%s load %s: 95%% CI half-width %.1f points exceeds 2; run more repetitions or on a quieter machine";
    private static final String GAP = "%s load %s: CPU accounting off by %.1f%% of 2 x wall (victim + background + idle should add up"
            + " to it); treat this cell with care";

    /** A noisy quick run: 18 per-cell warnings of two kinds and one about the run. */
    private static List<String> noisyRun() {
        List<String> w = new ArrayList<>();
        String[] policies = {"default", "batch", "nice10", "nice19", "idle", "quota50"};
        String[] loads = {"1", "2", "4"};
        int i = 0;
        for (String p : policies) {
            for (String l : loads) {
                w.add(String.format(Locale.ROOT, i % 3 == 2 ? GAP : CI, p, l, 2.5 + i));
                i++;
            }
        }
        w.add("policy 'cpu-idle' cannot be applied here, its row is skipped: no cpu.idle");
        return w;
    }

    @Test
    void shouldFoldPerCellWarningsIntoOneLinePerKindListingTheCells() {
        List<String> lines = WarningGroups.lines(noisyRun());
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).startsWith("12 cells: 95% CI half-width N points exceeds 2; run more repetitions")
                .contains("[default load 1 (2.5); default load 2 (3.5); batch load 1 (5.5);")
                .endsWith("quota50 load 2 (18.5)]");
        assertThat(lines.get(1)).startsWith("6 cells: CPU accounting off by N% of 2 x wall").contains("default load 4 (4.5)");
        assertThat(lines.get(2)).isEqualTo("policy 'cpu-idle' cannot be applied here, its row is skipped: no cpu.idle");
    }

    @Test
    void shouldFoldCellsThatNameTheirTopology() {
        List<String> lines = WarningGroups.lines(List.of(String.format(Locale.ROOT, CI, "other-session idle", "2", 3.3),
                String.format(Locale.ROOT, CI, "same-group idle", "2", 4.1)));
        assertThat(lines).singleElement().asString().startsWith("2 cells: 95% CI half-width N points")
                .endsWith("[other-session idle load 2 (3.3); same-group idle load 2 (4.1)]");
    }

    @Test
    void shouldKeepASingleWarningOfItsKindAsRaised() {
        String one = String.format(Locale.ROOT, CI, "idle", "2", 3.3);
        assertThat(WarningGroups.lines(List.of(one))).containsExactly(one);
        assertThat(WarningGroups.isAboutOneCell(one)).isTrue();
        assertThat(WarningGroups.isAboutOneCell("could not clean up a process: gone")).isFalse();
    }

    @Test
    void shouldPrintGroupedWarningsAboveTheTablesAndKeepEveryWarningInTheReport() {
        BenchReport r = ReportFixtures.report("v");
        BenchReport noisy = new BenchReport(r.schemaVersion(), r.tool(), r.partial(), r.partialReason(), r.scenario(), r.machine(),
                r.run(), r.verdicts(), r.policies(), r.loads(), r.topologies(), r.baseline(), r.cells(), noisyRun());
        String text = TextTable.render(noisy);
        assertThat(text.lines().filter(l -> l.startsWith("WARNING: "))).hasSize(3);
        assertThat(text.indexOf("WARNING: 12 cells")).isLessThan(text.indexOf("policy \\ load"));
        assertThat(noisy.warnings()).hasSize(19);
        assertThat(HtmlReport.render(noisy)).contains("quota50 load 2: 95% CI half-width 18.5 points exceeds 2");
    }
}
