package dev.schedpolicy.jenkins;

import edu.umd.cs.findbugs.annotations.CheckForNull;
import hudson.model.Executor;
import hudson.model.Queue;
import hudson.model.Run;
import hudson.security.ACL;
import hudson.security.ACLContext;

/**
 * The build a launch runs for, as Jenkins itself knows it: the block's or wrapper's build, else the Pipeline step
 * starting on the launching thread, else the build the launching executor runs (a freestyle build step). Never the
 * launch's environment: JOB_NAME and BUILD_NUMBER are the build's own to change ({@code withEnv}), and a build that
 * named another one would write its launches into that build's record and read back whether it exists.
 */
final class LaunchBuilds {
    private LaunchBuilds() {
    }

    /**
     * @param runId the build a block or wrapper took from its own step context or build ({@link LaunchSettings#runId()}),
     *              or null for a node default, which decorates a node's launcher for whichever build uses it
     * @return the build, or null when Jenkins does not know one for this launch (it is then measured outside a build)
     */
    @CheckForNull
    static Run<?, ?> of(@CheckForNull final String runId) {
        if (runId != null) {
            // as SYSTEM: the id came from Jenkins' context at the block's start, not from anything the build wrote
            try (ACLContext ignored = ACL.as2(ACL.SYSTEM2)) {
                return building(Run.fromExternalizableId(runId));
            }
        }
        Run<?, ?> step = PipelineSteps.runStartingHere();
        if (step != null) {
            return step;
        }
        Executor executor = Executor.currentExecutor();
        Queue.Executable running = executor == null ? null : executor.getCurrentExecutable();
        return running instanceof Run<?, ?> run ? building(run) : null;
    }

    /** A finished build's record is closed: nothing collects a launch added to it later. */
    @CheckForNull
    private static Run<?, ?> building(@CheckForNull final Run<?, ?> run) {
        return run != null && run.isBuilding() ? run : null;
    }
}
