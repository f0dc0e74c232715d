package dev.schedpolicy.jenkins;

import edu.hm.hafner.echarts.LineSeries;
import edu.hm.hafner.echarts.LinesChartModel;
import io.jenkins.plugins.echarts.JenkinsPalette;

/** What the job pages' trends share: lines in Jenkins' palette over a 0-100 % axis. */
final class TrendCharts {
    private TrendCharts() {
    }

    /**
     * A line in the palette's {@code color}th colour. Its {@code add} prepends (echarts-build-trends), so values go in
     * newest first to leave the series oldest first, as the chart's labels are.
     */
    static LineSeries line(final String name, final int color) {
        return new LineSeries(name, JenkinsPalette.chartColor(color).normal(), LineSeries.StackedMode.SEPARATE_LINES,
                LineSeries.FilledMode.LINES);
    }

    /** The model with a fixed 0-100 % range, so trends of different jobs read alike. */
    static LinesChartModel percent(final LinesChartModel model) {
        model.setRangeMin(0);
        model.setRangeMax(100);
        return model;
    }
}
