package dev.schedpolicy.jenkins;

import dev.schedpolicy.engine.buildpage.BenchmarkFiles;
import dev.schedpolicy.engine.buildpage.BenchmarkSummary;
import edu.umd.cs.findbugs.annotations.CheckForNull;
import hudson.model.Action;
import hudson.model.Run;
import io.jenkins.plugins.util.AbstractXmlStream;
import io.jenkins.plugins.util.BuildAction;
import io.jenkins.plugins.util.JobAction;
import java.util.Collection;
import java.util.List;
import org.kohsuke.stapler.StaplerProxy;

/**
 * The benchmark's result in the build: plugin-util-api's {@link BuildAction} persists it in its own
 * file in the build directory (schedpolicy-benchmark.xml, schedpolicy-benchmark-NODE.xml for an agent) and reloads it
 * on demand; summary.jelly
 * shows it on the build page; the detail page is {@link BenchmarkViewModel} (via {@link StaplerProxy}).
 */
public class BenchmarkBuildAction extends BuildAction<BenchmarkResult> implements StaplerProxy {
    private static final long serialVersionUID = 1L;
    static final String URL = BenchmarkFiles.BASE;

    /**
     * The node the benchmark ran on, "" for the built-in node; null in builds made before it was recorded. One build can
     * benchmark several agents (a {@code parallel} over a label), so each action has its own file and URL.
     */
    private final String nodeName;
    /**
     * The file's and the page's name, chosen once by the engine ({@link BenchmarkFiles}) and stored with the build: one
     * per node and result of the build. Null in builds stored before, which keep the name they were written with.
     */
    private final String name;

    /**
     * Call under the run's lock with {@link Run#addAction} (see {@link #addTo}): the name is chosen against the build's
     * other results.
     */
    BenchmarkBuildAction(final Run<?, ?> owner, final BenchmarkResult result) {
        // written here, not by the super constructor: the file's name depends on the node, set after super()
        super(owner, result, false);
        this.nodeName = result.getNodeName();
        this.name = BenchmarkFiles.nameFor(nodeName, owner.getActions(BenchmarkBuildAction.class).stream()
                .map(BenchmarkBuildAction::name).toList());
        createXmlStream().write(owner.getRootDir().toPath().resolve(getBuildResultBaseName()), result);
    }

    /** Adds the result to the build: parallel branches on two nodes (or two results of one node) never share a file. */
    static void addTo(final Run<?, ?> run, final BenchmarkResult result) {
        synchronized (run) {
            run.addAction(new BenchmarkBuildAction(run, result));
        }
    }

    /** "schedpolicy-benchmark" for the built-in node, "schedpolicy-benchmark-NODE" (escaped) for an agent. */
    private String name() {
        return name != null ? name : BenchmarkFiles.legacyNameFor(nodeName);
    }

    @Override
    protected AbstractXmlStream<BenchmarkResult> createXmlStream() {
        return new BenchmarkXmlStream();
    }

    @Override
    protected JobAction<? extends BuildAction<BenchmarkResult>> createProjectAction() {
        return new BenchmarkJobAction(getOwner().getParent());
    }

    /** One trend for the job, however many nodes a build benchmarked: the build's first benchmark brings it. */
    @Override
    public Collection<? extends Action> getProjectActions() {
        List<BenchmarkBuildAction> all = getOwner().getActions(BenchmarkBuildAction.class);
        return all.isEmpty() || all.get(0) == this ? super.getProjectActions() : List.of();
    }

    /** The node as the build page names it ("built-in" for the built-in node and older builds). */
    public String getNodeDisplayName() {
        return FleetProbes.nameOf(nodeName);
    }

    @Override
    protected String getBuildResultBaseName() {
        return name() + ".xml";
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
        return nodeName == null || nodeName.isEmpty() ? Messages.Page_benchmark() : Messages.Page_benchmarkOn(nodeName);
    }

    @Override
    public String getUrlName() {
        return name();
    }

    static final class BenchmarkXmlStream extends AbstractXmlStream<BenchmarkResult> {
        BenchmarkXmlStream() {
            super(BenchmarkResult.class);
        }

        @Override
        protected BenchmarkResult createDefaultValue() {
            return new BenchmarkResult("{}", Messages.Benchmark_unreadable());
        }
    }
}
