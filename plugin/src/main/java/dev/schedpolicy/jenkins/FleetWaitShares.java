package dev.schedpolicy.jenkins;

import dev.schedpolicy.engine.fleet.WaitShares;
import hudson.model.Job;
import hudson.model.Run;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import jenkins.model.Jenkins;

/**
 * The fleet view's "waiting for a CPU" column: per agent, the wait share of launches without a policy in the newest
 * {@link FleetBenchmarks#BUILDS_PER_JOB} builds of each job the viewer may read ({@link WaitShares}), scanned as the
 * viewer once per request ({@link PerRequest}).
 */
final class FleetWaitShares {
    private static final String ATTRIBUTE = FleetWaitShares.class.getName();

    private FleetWaitShares() {
    }

    /** This request's figures, scanned on first use; outside a request, scanned now. */
    static Map<String, WaitShares.AgentShare> scan() {
        return PerRequest.once(ATTRIBUTE, FleetWaitShares::scanAsViewer);
    }

    /** {@code allItems} gives the jobs the current authentication may read, along their folders. */
    private static Map<String, WaitShares.AgentShare> scanAsViewer() {
        List<WaitShares.Launch> launches = new ArrayList<>();
        for (Job<?, ?> job : Jenkins.get().allItems(Job.class)) {
            for (Run<?, ?> run : job.getBuilds().limit(FleetBenchmarks.BUILDS_PER_JOB)) {
                for (MeasureBuildAction action : run.getActions(MeasureBuildAction.class)) {
                    for (MeasureResult.Launch l : action.getResult().getLaunches()) {
                        launches.add(new WaitShares.Launch(FleetProbes.nameOf(l.getNode()), l.isLowered(),
                                l.getRecord().waitNanos(), l.getRecord().sampledCpuNanos()));
                    }
                }
            }
        }
        return WaitShares.ofUnlowered(launches);
    }

    /** The node's share in words, or null when no unlowered launch of it was measured. */
    static String textFor(final String node) {
        WaitShares.AgentShare s = scan().get(node);
        return s == null ? null : s.text();
    }
}
