package dev.schedpolicy.jenkins;

import edu.hm.hafner.echarts.BuildResult;
import edu.hm.hafner.echarts.LineSeries;
import edu.hm.hafner.echarts.LinesChartModel;
import hudson.model.Job;
import io.jenkins.plugins.echarts.AsyncTrendJobAction;
import io.jenkins.plugins.echarts.JenkinsPalette;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The job page's trend (floatingBox.jelly): per policy, the test job's worst kept % in each build's
 * benchmark, oldest build first. echarts-api's AsyncTrendJobAction loads the model through Ajax.
 */
public class BenchmarkJobAction extends AsyncTrendJobAction<BenchmarkBuildAction> {
    private static final int MAX_BUILDS = 50;

    BenchmarkJobAction(final Job<?, ?> owner) {
        super(owner, BenchmarkBuildAction.class);
    }

    @Override
    protected LinesChartModel createChartModel() {
        List<BuildResult<BenchmarkBuildAction>> history = new ArrayList<>();
        for (BuildResult<BenchmarkBuildAction> r : createBuildHistory()) {
            if (history.size() >= MAX_BUILDS) {
                break;
            }
            if (r.getResult().getSummary() != null) {
                history.add(0, r); // oldest first
            }
        }
        Set<String> policies = new LinkedHashSet<>();
        history.forEach(r -> policies.addAll(r.getResult().getSummary().policies()));
        List<String> labels = history.stream().map(r -> r.getBuild().getDisplayName()).toList();
        List<Integer> builds = history.stream().map(r -> r.getBuild().getNumber()).toList();
        LinesChartModel model = new LinesChartModel(labels, builds);
        int color = 0;
        for (String policy : policies) {
            LineSeries series = new LineSeries(policy, JenkinsPalette.chartColor(color++).normal(),
                    LineSeries.StackedMode.SEPARATE_LINES, LineSeries.FilledMode.LINES);
            for (BuildResult<BenchmarkBuildAction> r : history) {
                // 0 where a build did not measure the policy; the engine computes the worst kept % over loads
                series.add((int) Math.round(r.getResult().getSummary().worstKept(policy).orElse(0)));
            }
            model.addSeries(series);
        }
        model.setRangeMin(0);
        model.setRangeMax(100);
        return model;
    }

    @Override
    public String getIconFileName() {
        return "symbol-analytics";
    }

    @Override
    public String getDisplayName() {
        return "Sched Policy benchmark";
    }

    @Override
    public String getUrlName() {
        return BenchmarkBuildAction.URL;
    }
}
