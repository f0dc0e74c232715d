package dev.schedpolicy.jenkins;

import dev.schedpolicy.engine.agent.BenchmarkSummary;
import edu.umd.cs.findbugs.annotations.CheckForNull;
import hudson.model.Run;
import io.jenkins.plugins.util.AbstractXmlStream;
import io.jenkins.plugins.util.BuildAction;
import io.jenkins.plugins.util.JobAction;
import org.kohsuke.stapler.StaplerProxy;

/**
 * The benchmark's result in the build: plugin-util-api's {@link BuildAction} persists it in its own
 * file in the build directory (schedpolicy-benchmark.xml) and reloads it on demand; summary.jelly
 * shows it on the build page; the detail page is {@link BenchmarkViewModel} (via {@link StaplerProxy}).
 */
public class BenchmarkBuildAction extends BuildAction<BenchmarkResult> implements StaplerProxy {
    private static final long serialVersionUID = 1L;
    static final String URL = "schedpolicy-benchmark";

    BenchmarkBuildAction(final Run<?, ?> owner, final BenchmarkResult result) {
        super(owner, result);
    }

    @Override
    protected AbstractXmlStream<BenchmarkResult> createXmlStream() {
        return new BenchmarkXmlStream();
    }

    @Override
    protected JobAction<? extends BuildAction<BenchmarkResult>> createProjectAction() {
        return new BenchmarkJobAction(getOwner().getParent());
    }

    @Override
    protected String getBuildResultBaseName() {
        return "schedpolicy-benchmark.xml";
    }

    /** The summary for summary.jelly and the trend; null when the stored JSON cannot be read. */
    @CheckForNull
    public BenchmarkSummary getSummary() {
        try {
            return getResult().summary();
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    @Override
    public Object getTarget() {
        return new BenchmarkViewModel(getOwner(), getResult());
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
        return URL;
    }

    static final class BenchmarkXmlStream extends AbstractXmlStream<BenchmarkResult> {
        BenchmarkXmlStream() {
            super(BenchmarkResult.class);
        }

        @Override
        protected BenchmarkResult createDefaultValue() {
            return new BenchmarkResult("{}", "the stored benchmark result could not be read");
        }
    }
}
