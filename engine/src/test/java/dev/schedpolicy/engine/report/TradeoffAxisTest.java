package dev.schedpolicy.engine.report;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** The tradeoff chart's axes grow to hold every point: a victim faster than its baseline keeps more than 100%. */
class TradeoffAxisTest {
    private static final Pattern POINT = Pattern.compile("<circle class=\"point\" cx=\"([0-9.-]+)\" cy=\"([0-9.-]+)\"");

    @Test
    void shouldDrawPointsAbove105PercentInsideThePlot() {
        BenchReport fixture = ReportFixtures.report("v");
        List<BenchReport.Cell> cells = fixture.cells().stream().map(c -> c.policy().equals("idle")
                ? withKept(c, c.load() == 1 ? 107.8 : 110) : c).toList();
        BenchReport report = new BenchReport(fixture.schemaVersion(), fixture.tool(), fixture.partial(), fixture.partialReason(),
                fixture.scenario(), fixture.machine(), fixture.run(), fixture.verdicts(), fixture.policies(), fixture.loads(),
                fixture.topologies(), fixture.baseline(), cells, fixture.warnings()).forTopology("same-group");

        Matcher m = POINT.matcher(HtmlCharts.tradeoffChart(report));
        int points = 0;
        while (m.find()) {
            points++;
            assertThat(Double.parseDouble(m.group(2))).as("cy of point " + points)
                    .isBetween((double) HtmlReport.T, (double) HtmlReport.H - HtmlReport.B);
            assertThat(Double.parseDouble(m.group(1))).as("cx of point " + points)
                    .isBetween((double) HtmlReport.L, (double) HtmlReport.W - HtmlReport.R);
        }
        assertThat(points).isEqualTo(6);
    }

    @Test
    void shouldKeepTheUsualTopWhenEveryPointFits() {
        assertThat(HtmlCharts.axisTop(99, 105)).isEqualTo(105);
        assertThat(HtmlCharts.axisTop(107.8, 105)).isEqualTo(120);
        assertThat(HtmlCharts.axisTop(110, 105)).isEqualTo(120);
    }

    private static BenchReport.Cell withKept(final BenchReport.Cell c, final double kept) {
        return new BenchReport.Cell(c.policy(), c.load(), c.topology(), c.backgroundCopies(), c.victimWorkers(), c.fromBaseline(), c.applied(),
                Stat.of(List.of(kept - 1, kept, kept + 1)), c.runQueueSharePct(), c.latencyUs(), c.backgroundRate(),
                c.backgroundUnit(), c.backgroundFreeCpuPct(), c.backgroundOfOneCpuPct(), c.totalCpuPct(), c.psiCpuSomePct(),
                c.throttledPct(), c.wallOverCpu(), c.accountingGapPct(), c.threads());
    }
}
