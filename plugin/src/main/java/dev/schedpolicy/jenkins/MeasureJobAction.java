package dev.schedpolicy.jenkins;

import edu.hm.hafner.echarts.BuildResult;
import edu.hm.hafner.echarts.LineSeries;
import edu.hm.hafner.echarts.LinesChartModel;
import hudson.model.Job;
import io.jenkins.plugins.echarts.AsyncTrendJobAction;
import java.util.ArrayList;
import java.util.List;

/**
 * The job page's trend (floatingBox.jelly): each build's wait share, all launches and unlowered ones, oldest first; a
 * build without an unlowered launch leaves a gap in the second line.
 */
public class MeasureJobAction extends AsyncTrendJobAction<MeasureBuildAction> {
    private static final int MAX_BUILDS = 50;

    MeasureJobAction(final Job<?, ?> owner) {
        super(owner, MeasureBuildAction.class);
    }

    @Override
    protected LinesChartModel createChartModel() {
        List<BuildResult<MeasureBuildAction>> newestFirst = new ArrayList<>();
        for (BuildResult<MeasureBuildAction> r : createBuildHistory()) {
            if (newestFirst.size() >= MAX_BUILDS) {
                break;
            }
            if (r.getResult().getWaitSharePercent() >= 0) {
                newestFirst.add(r);
            }
        }
        List<String> labels = new ArrayList<>();
        List<Integer> numbers = new ArrayList<>();
        for (int i = newestFirst.size() - 1; i >= 0; i--) {
            labels.add(newestFirst.get(i).getBuild().getDisplayName());
            numbers.add(newestFirst.get(i).getBuild().getNumber());
        }
        LinesChartModel model = new LinesChartModel(labels, numbers);
        LineSeries all = TrendCharts.line(Messages.Trend_allLaunches(), 0);
        LineSeries unlowered = TrendCharts.line(Messages.Trend_unlowered(), 1);
        List<Integer> unloweredOldestFirst = new ArrayList<>();
        for (BuildResult<MeasureBuildAction> r : newestFirst) {
            all.add((int) Math.round(r.getResult().getWaitSharePercent())); // add puts each value first: oldest first
            double u = r.getResult().getUnloweredWaitSharePercent();
            // -1: every launch of the build was lowered, so it has no such share: a gap in the line (ECharts draws no
            // point for null), never a build that waited 0%; add(int) takes no null, addAll appends in order
            unloweredOldestFirst.add(0, u < 0 ? null : (int) Math.round(u));
        }
        unlowered.addAll(unloweredOldestFirst);
        model.addSeries(all);
        model.addSeries(unlowered);
        return TrendCharts.percent(model);
    }

    @Override
    public String getIconFileName() {
        return "symbol-analytics";
    }

    @Override
    public String getDisplayName() {
        return Messages.Page_measure();
    }

    @Override
    public String getUrlName() {
        return MeasureBuildAction.URL;
    }
}
