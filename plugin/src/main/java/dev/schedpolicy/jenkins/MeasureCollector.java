package dev.schedpolicy.jenkins;

import edu.umd.cs.findbugs.annotations.NonNull;
import hudson.Extension;
import hudson.model.Run;
import hudson.model.TaskListener;
import hudson.model.listeners.RunListener;
import org.jenkinsci.plugins.workflow.flow.FlowExecutionOwner;

/**
 * At the end of a build, collects the figures of its measured launches that were not collected as it went
 * ({@link MeasuredLaunches}) from their agents, all at once and each with a deadline ({@link AgentMeasures}), into the
 * build's {@link MeasureBuildAction}. A missing or hung agent gives a line in the result, never a failed or held-up
 * build. A Pipeline build's were collected already when its flow ended ({@link MeasureAtFlowEnd}). Another build's
 * launches also say here what they yielded to guarded steps ({@link YieldBuildAction}).
 */
@Extension
public class MeasureCollector extends RunListener<Run<?, ?>> {
    @Override
    public void onCompleted(final Run<?, ?> run, @NonNull final TaskListener listener) {
        MeasuredLaunches.collectAtEnd(run);
        if (!(run instanceof FlowExecutionOwner.Executable)) {
            // a Pipeline's was said at its flow's end ({@link MeasureAtFlowEnd}), before its console said "Finished"
            YieldBuildAction.sayAtEnd(run, listener);
        }
    }
}
