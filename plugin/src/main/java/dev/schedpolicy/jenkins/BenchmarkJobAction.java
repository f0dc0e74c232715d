package dev.schedpolicy.jenkins;

import dev.schedpolicy.engine.agent.BenchmarkGate;
import dev.schedpolicy.engine.agent.BenchmarkSummary;
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
 * benchmark, in the topology the gate judges that policy in ({@link BenchmarkGate#topologyFor}), oldest build first. echarts-api's AsyncTrendJobAction loads the model through Ajax.
 */
public class BenchmarkJobAction extends AsyncTrendJobAction<BenchmarkBuildAction> {
    private static final int MAX_BUILDS = 50;

    BenchmarkJobAction(final Job<?, ?> owner) {
        super(owner, BenchmarkBuildAction.class);
    }

    @Override
    protected LinesChartModel createChartModel() {
        List<BuildResult<BenchmarkBuildAction>> newestFirst = new ArrayList<>();
        List<BenchmarkSummary> summaries = new ArrayList<>();
        List<String> asked = new ArrayList<>();
        for (BuildResult<BenchmarkBuildAction> r : createBuildHistory()) {
            if (newestFirst.size() >= MAX_BUILDS) {
                break;
            }
            BenchmarkSummary summary = r.getResult().getSummary();
            if (summary != null) {
                newestFirst.add(r);
                summaries.add(summary);
                asked.add(r.getResult().getResult().getGateTopology());
            }
        }
        Set<String> policies = new LinkedHashSet<>();
        summaries.forEach(s -> policies.addAll(s.policies()));
        List<String> labels = new ArrayList<>();
        List<Integer> builds = new ArrayList<>();
        for (int i = newestFirst.size() - 1; i >= 0; i--) {
            labels.add(newestFirst.get(i).getBuild().getDisplayName());
            builds.add(newestFirst.get(i).getBuild().getNumber());
        }
        LinesChartModel model = new LinesChartModel(labels, builds);
        int color = 0;
        for (String policy : policies) {
            LineSeries series = new LineSeries(policy, JenkinsPalette.chartColor(color++).normal(),
                    LineSeries.StackedMode.SEPARATE_LINES, LineSeries.FilledMode.LINES);
            // LineSeries.add prepends (echarts-build-trends): adding newest first leaves the series oldest first,
            // in the order of the labels; 0 where a build did not measure the policy
            for (int i = 0; i < summaries.size(); i++) {
                BenchmarkSummary s = summaries.get(i);
                series.add((int) Math.round(s.worstKept(policy, BenchmarkGate.topologyFor(policy, asked.get(i), s)).orElse(0)));
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
