package dev.schedpolicy.jenkins;

import dev.schedpolicy.engine.buildpage.BenchmarkSummary;
import dev.schedpolicy.engine.buildpage.BenchmarkTrend;
import edu.hm.hafner.echarts.LineSeries;
import edu.hm.hafner.echarts.LinesChartModel;
import hudson.model.Job;
import hudson.model.Run;
import io.jenkins.plugins.echarts.AsyncTrendJobAction;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The job page's trend (floatingBox.jelly): per policy, the test job's worst kept % in each build's
 * benchmark, in the topology the gate judges that policy in, oldest build first, with a series per node where builds
 * benchmark several ({@link BenchmarkTrend}). echarts-api's AsyncTrendJobAction loads the model through Ajax.
 */
public class BenchmarkJobAction extends AsyncTrendJobAction<BenchmarkBuildAction> {
    private static final int MAX_BUILDS = 50;

    BenchmarkJobAction(final Job<?, ?> owner) {
        super(owner, BenchmarkBuildAction.class);
    }

    @Override
    protected LinesChartModel createChartModel() {
        List<BenchmarkTrend.Build> newestFirst = new ArrayList<>();
        for (Run<?, ?> run : getOwner().getBuilds()) {
            if (newestFirst.size() >= MAX_BUILDS) {
                break;
            }
            Map<String, BenchmarkTrend.Measured> byNode = new LinkedHashMap<>();
            for (BenchmarkBuildAction action : run.getActions(BenchmarkBuildAction.class)) {
                BenchmarkSummary summary = action.getSummary();
                if (summary != null) {
                    // a second result of one node in one build gets a series of its own too
                    String key = action.getNodeDisplayName();
                    for (int n = 2; byNode.containsKey(key); n++) {
                        key = action.getNodeDisplayName() + " (" + n + ")";
                    }
                    byNode.put(key, new BenchmarkTrend.Measured(summary, action.getResult().getGateTopology()));
                }
            }
            if (!byNode.isEmpty()) {
                newestFirst.add(new BenchmarkTrend.Build(run.getDisplayName(), run.getNumber(), byNode));
            }
        }
        List<BenchmarkTrend.Build> oldestFirst = new ArrayList<>(newestFirst);
        Collections.reverse(oldestFirst);
        LinesChartModel model = new LinesChartModel(oldestFirst.stream().map(BenchmarkTrend.Build::label).toList(),
                oldestFirst.stream().map(BenchmarkTrend.Build::number).toList());
        int color = 0;
        for (BenchmarkTrend.Series s : BenchmarkTrend.series(oldestFirst)) {
            LineSeries series = TrendCharts.line(s.name(), color++);
            List<Integer> values = new ArrayList<>(s.values());
            Collections.reverse(values);
            values.forEach(series::add);
            model.addSeries(series);
        }
        return TrendCharts.percent(model);
    }

    @Override
    public String getIconFileName() {
        return "symbol-analytics";
    }

    @Override
    public String getDisplayName() {
        return Messages.Page_benchmark();
    }

    @Override
    public String getUrlName() {
        return BenchmarkBuildAction.URL;
    }
}
