package dev.schedpolicy.jenkins;

import dev.schedpolicy.engine.fleet.LatestVerdicts;
import hudson.model.Job;
import hudson.model.Run;
import java.util.logging.Level;
import java.util.logging.Logger;
import jenkins.model.Jenkins;

/**
 * Finds the benchmark builds the fleet view shows, by their {@link BenchmarkBuildAction}: only the newest
 * {@link #BUILDS_PER_JOB} builds of each job the viewer may read are looked at, so a page view loads a bounded number
 * of builds however long the history is; an older verdict is behind the job's trend chart.
 */
final class FleetBenchmarks {
    static final int BUILDS_PER_JOB = 10;
    private static final Logger LOGGER = Logger.getLogger(FleetBenchmarks.class.getName());

    private FleetBenchmarks() {
    }

    static LatestVerdicts scan() {
        LatestVerdicts latest = new LatestVerdicts();
        int builds = 0;
        for (Job<?, ?> job : Jenkins.get().allItems(Job.class)) {
            for (Run<?, ?> run : job.getBuilds().limit(BUILDS_PER_JOB)) {
                builds++;
                // a Pipeline that benchmarks several agents in parallel adds one action per agent
                for (BenchmarkBuildAction action : run.getActions(BenchmarkBuildAction.class)) {
                    BenchmarkResult result = action.getResult();
                    if (result.getNodeName() != null) {
                        latest.offer(FleetProbes.nameOf(result.getNodeName()), run.getFullDisplayName(), run.getUrl() + action.getUrlName() + "/",
                                run.getStartTimeInMillis(), result.getJson());
                    }
                }
            }
        }
        LOGGER.log(Level.FINE, "fleet view: searched {0} builds for benchmark verdicts", builds);
        return latest;
    }
}
