package dev.schedpolicy.jenkins;

import dev.schedpolicy.engine.agent.MeasureRecord;
import edu.umd.cs.findbugs.annotations.NonNull;
import hudson.Extension;
import hudson.model.Computer;
import hudson.model.Run;
import hudson.model.TaskListener;
import hudson.model.listeners.RunListener;
import hudson.remoting.VirtualChannel;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import jenkins.model.Jenkins;

/**
 * At the end of a build, collects the figures of its measured launches from their agents (each waits up to
 * {@link #WAIT_SECONDS} for a launch's last processes, e.g. durable-task's heartbeat loop, to end) and adds them to
 * the build as a {@link MeasureBuildAction}. A missing agent gives a line in the result, never a failed build.
 */
@Extension
public class MeasureCollector extends RunListener<Run<?, ?>> {
    static final int WAIT_SECONDS = 15;

    @Override
    public void onCompleted(final Run<?, ?> run, @NonNull final TaskListener listener) {
        MeasuredLaunches launches = run.getAction(MeasuredLaunches.class);
        if (launches == null) {
            return;
        }
        Map<String, List<MeasuredLaunches.Pending>> byNode = new LinkedHashMap<>();
        for (MeasuredLaunches.Pending p : launches.take()) {
            byNode.computeIfAbsent(p.node, k -> new ArrayList<>()).add(p);
        }
        if (byNode.isEmpty()) {
            return;
        }
        MeasureResult result = new MeasureResult();
        byNode.forEach((node, pending) -> collect(node, pending, result));
        run.addAction(new MeasureBuildAction(run, result));
        run.removeAction(launches);
    }

    private static void collect(final String node, final List<MeasuredLaunches.Pending> pending, final MeasureResult result) {
        Computer c = node.isEmpty() ? Jenkins.get().toComputer() : Jenkins.get().getComputer(node);
        VirtualChannel channel = c == null ? null : c.getChannel();
        String where = node.isEmpty() ? "built-in" : node;
        if (channel == null) {
            result.missing(pending.size() + " launch(es) on " + where + ": the agent is offline");
            return;
        }
        List<String> ids = pending.stream().map(p -> p.id).toList();
        try {
            List<MeasureRecord> records = channel.call(new AgentCalls.CollectMeasures(ids, WAIT_SECONDS));
            for (MeasuredLaunches.Pending p : pending) {
                records.stream().filter(r -> r.id().equals(p.id)).findFirst()
                        .ifPresentOrElse(r -> result.add(new MeasureResult.Launch(node, p.policy, r, p.stage, p.branch, p.step)),
                                () -> result.missing(p.label + " on " + where + ": the agent has no figures (it restarted?)"));
            }
        } catch (java.io.IOException | InterruptedException | RuntimeException e) {
            result.missing(pending.size() + " launch(es) on " + where + ": " + e.getMessage());
        }
    }
}
