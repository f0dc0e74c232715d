package dev.schedpolicy.jenkins;

import hudson.Extension;
import hudson.model.Queue;
import hudson.model.Run;
import hudson.util.DaemonThreadFactory;
import hudson.util.NamingThreadFactory;
import java.io.IOException;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.jenkinsci.plugins.workflow.flow.GraphListener;
import org.jenkinsci.plugins.workflow.graph.BlockEndNode;
import org.jenkinsci.plugins.workflow.graph.FlowEndNode;
import org.jenkinsci.plugins.workflow.graph.FlowNode;

/**
 * The ends of a Pipeline's blocks that the administrator's rules guard ({@link RuleGuards}): a stage's block (a stage
 * rule, keyed by the stage's start node) at the stage's end, the whole build's (the whole-job and label rules) at the
 * flow's end, each with the block's one console line and page entry. The end is reported off the Pipeline's thread
 * (collecting waits for the launches' last processes); the flow's end waits for those reports, so a build says it
 * finished only with its blocks' lines written, and its completion saves them.
 */
@Extension
public class StageGuards implements GraphListener.Synchronous {
    private static final Logger LOGGER = Logger.getLogger(StageGuards.class.getName());
    private static final String KEY_PREFIX = "stage-guard:";
    /** How long a flow's end waits for its stages' reports: the collection's own bound and some remoting. */
    private static final int END_WAIT_SECONDS = 30;
    private static final ExecutorService ENDS = ends();
    /** The reports under way, by build. */
    private static final Map<String, List<Future<?>>> REPORTING = new ConcurrentHashMap<>();

    private static ExecutorService ends() {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(2, 2, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                new NamingThreadFactory(new DaemonThreadFactory(), "Sched Policy guarded stage end"));
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    /** The key of the block that is the stage starting at {@code stageNodeId} of {@code run}. */
    static String key(final Run<?, ?> run, final String stageNodeId) {
        return KEY_PREFIX + run.getExternalizableId() + ":" + stageNodeId;
    }

    @Override
    public void onNewHead(final FlowNode node) {
        if (!(node instanceof BlockEndNode<?>) && !(node instanceof FlowEndNode)) {
            return;
        }
        Run<?, ?> run;
        try {
            Queue.Executable executable = node.getExecution().getOwner().getExecutable();
            if (!(executable instanceof Run<?, ?> r)) {
                return;
            }
            run = r;
        } catch (IOException | RuntimeException e) {
            LOGGER.log(Level.WARNING, "cannot tell the build of " + node.getExecution(), e);
            return;
        }
        String key = node instanceof FlowEndNode ? RuleGuards.buildKey(run)
                : key(run, ((BlockEndNode<?>) node).getStartNode().getId());
        if (GuardedSteps.isOpen(key)) {
            REPORTING.computeIfAbsent(run.getExternalizableId(), k -> new CopyOnWriteArrayList<>())
                    .add(ENDS.submit(() -> report(node, key, run)));
        }
        if (node instanceof FlowEndNode) {
            awaitReports(run);
        }
    }

    private static void report(final FlowNode end, final String key, final Run<?, ?> run) {
        try {
            PrintStream log = end.getExecution().getOwner().getListener().getLogger();
            // not saved here: the flow's end waits for this report, and a Pipeline's save waits for the flow's thread
            GuardedSteps.end(key, run, log, false);
        } catch (IOException | RuntimeException e) {
            LOGGER.log(Level.WARNING, "cannot report the guarded stage " + key, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** On the flow's end, before the build says it finished: its stages' lines are in the console and on the page. */
    private static void awaitReports(final Run<?, ?> run) {
        List<Future<?>> reports = REPORTING.remove(run.getExternalizableId());
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(END_WAIT_SECONDS);
        for (Future<?> f : reports == null ? List.<Future<?>>of() : reports) {
            try {
                f.get(Math.max(0, until - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (ExecutionException | TimeoutException e) {
                LOGGER.log(Level.WARNING, "a guarded stage of " + run + " was not reported in time", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
