package dev.schedpolicy.jenkins;

import dev.schedpolicy.engine.fleet.GuardTimes;
import edu.umd.cs.findbugs.annotations.CheckForNull;
import hudson.model.Job;
import hudson.model.Run;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import jenkins.model.Jenkins;

/**
 * The fleet view's guard column: per agent, how long guards acted there and how long launches there yielded to them,
 * over the newest {@link FleetBenchmarks#BUILDS_PER_JOB} builds of each job the viewer may read, scanned as the viewer
 * once per request ({@link PerRequest}).
 */
final class FleetGuardTimes {
    private static final String ATTRIBUTE = FleetGuardTimes.class.getName();

    private FleetGuardTimes() {
    }

    /** This request's figures, scanned on first use; outside a request, scanned now. */
    static Map<String, GuardTimes> scan() {
        return PerRequest.once(ATTRIBUTE, FleetGuardTimes::scanAsViewer);
    }

    /** {@code allItems} gives the jobs the current authentication may read, along their folders. */
    private static Map<String, GuardTimes> scanAsViewer() {
        List<GuardTimes.Entry> entries = new ArrayList<>();
        for (Job<?, ?> job : Jenkins.get().allItems(Job.class)) {
            for (Run<?, ?> run : job.getBuilds().limit(FleetBenchmarks.BUILDS_PER_JOB)) {
                GuardBuildAction guarded = run.getAction(GuardBuildAction.class);
                if (guarded != null) {
                    guarded.actingByNode().forEach((node, millis) ->
                            entries.add(new GuardTimes.Entry(FleetProbes.nameOf(node), millis, 0)));
                }
                YieldBuildAction yielded = run.getAction(YieldBuildAction.class);
                if (yielded != null) {
                    yielded.millisByNode().forEach((node, millis) ->
                            entries.add(new GuardTimes.Entry(FleetProbes.nameOf(node), 0, millis)));
                }
            }
        }
        return GuardTimes.perAgent(entries);
    }

    /** The node's guard times in words, or null when no guard acted there in the builds the viewer may read. */
    @CheckForNull
    static String textFor(final String node) {
        GuardTimes t = scan().get(node);
        return t == null ? null : t.text();
    }
}
