package dev.schedpolicy.jenkins;

import hudson.Extension;
import hudson.model.Queue;
import hudson.model.Run;
import java.io.IOException;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.jenkinsci.plugins.workflow.flow.GraphListener;
import org.jenkinsci.plugins.workflow.graph.FlowEndNode;
import org.jenkinsci.plugins.workflow.graph.FlowNode;

/**
 * Collects a Pipeline build's measured launches when its flow ends, before the build says it finished, and says what
 * its launches yielded to guarded steps ({@link YieldBuildAction}). A Pipeline run
 * reports {@code building: false} before it calls {@code RunListener.onCompleted}, so a client that read the figures
 * as soon as the build had finished found none on a slow controller. The flow's listeners from extensions run, in
 * the same thread, before the run's own listener finishes it.
 */
@Extension
public class MeasureAtFlowEnd implements GraphListener.Synchronous {
    private static final Logger LOGGER = Logger.getLogger(MeasureAtFlowEnd.class.getName());

    @Override
    public void onNewHead(final FlowNode node) {
        if (!(node instanceof FlowEndNode)) {
            return;
        }
        try {
            Queue.Executable executable = node.getExecution().getOwner().getExecutable();
            if (executable instanceof Run<?, ?> run) {
                MeasuredLaunches.collectAtEnd(run);
                // said here, not when the run completes: a Pipeline's console has said "Finished" by then
                YieldBuildAction.sayAtEnd(run, node.getExecution().getOwner().getListener());
            }
        } catch (IOException | RuntimeException e) {
            LOGGER.log(Level.WARNING, "cannot collect the measured launches at the end of " + node.getExecution(), e);
        }
    }
}
