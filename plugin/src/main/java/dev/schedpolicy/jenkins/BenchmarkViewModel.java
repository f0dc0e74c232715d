package dev.schedpolicy.jenkins;

import dev.schedpolicy.engine.buildpage.BenchmarkSummary;
import edu.umd.cs.findbugs.annotations.CheckForNull;
import hudson.model.ModelObject;
import hudson.model.Run;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.kohsuke.stapler.StaplerRequest2;
import org.kohsuke.stapler.StaplerResponse2;

/**
 * The detail page (index.jelly): the report's tables, and charts drawn by benchmark-charts.js from
 * {@link #getChartData()} (no inline JavaScript). {@code report.json} serves the raw result.
 */
public class BenchmarkViewModel implements ModelObject {
    private final Run<?, ?> owner;
    private final BenchmarkResult result;

    BenchmarkViewModel(final Run<?, ?> owner, final BenchmarkResult result) {
        this.owner = owner;
        this.result = result;
    }

    public Run<?, ?> getOwner() {
        return owner;
    }

    @Override
    public String getDisplayName() {
        return Messages.Page_benchmark();
    }

    @CheckForNull
    public BenchmarkSummary getSummary() {
        try {
            return result.summary();
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    public String getGateMessage() {
        return result.getGateMessage();
    }

    /** JSON for the charts, handed to the script through a data attribute (escaped by Jelly). */
    public String getChartData() {
        BenchmarkSummary s = getSummary();
        return s == null ? "{\"loads\":[],\"series\":[]}" : s.chartData();
    }

    /** {@code .../schedpolicy-benchmark/reportJson}: the report as the engine wrote it. */
    public void doReportJson(final StaplerRequest2 req, final StaplerResponse2 rsp) throws IOException {
        rsp.setContentType("application/json;charset=UTF-8");
        rsp.getOutputStream().write(result.getJson().getBytes(StandardCharsets.UTF_8));
    }
}
