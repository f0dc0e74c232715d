package dev.schedpolicy.jenkins;

import edu.umd.cs.findbugs.annotations.CheckForNull;
import hudson.model.Run;
import hudson.security.ACL;
import hudson.security.ACLContext;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The build each recent launch ran for, by node and the launch's id in that node's registry, as {@link LaunchBuilds}
 * found it when the launch started: a guard's record names the launches it lowered by id only, and their builds are told
 * what they yielded ({@link YieldBuildAction}). Held in the controller's memory and bounded: a launch whose entry is gone
 * (many launches later, or after a restart) is counted on the guarded build's page but told to no build.
 */
final class LaunchRuns {
    /** About 10,000 launches of all agents: the launches a busy fleet starts in the time a guarded step runs. */
    static final int MAX_KEPT = 10_000;
    private static final Map<String, String> RUNS = new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(final Map.Entry<String, String> eldest) {
            return size() > MAX_KEPT;
        }
    };

    private LaunchRuns() {
    }

    /** Launch {@code id} on node {@code node} ("" or null: the built-in node) runs for {@code run}, when there is one. */
    static void record(@CheckForNull final String node, final String id, @CheckForNull final Run<?, ?> run) {
        if (run == null) {
            return;
        }
        synchronized (RUNS) {
            RUNS.put(key(node, id), run.getExternalizableId());
        }
    }

    /** The build launch {@code id} on {@code node} ran for, or null when it is not known (any more). */
    @CheckForNull
    static Run<?, ?> of(@CheckForNull final String node, final String id) {
        String runId;
        synchronized (RUNS) {
            runId = RUNS.get(key(node, id));
        }
        if (runId == null) {
            return null;
        }
        // as SYSTEM: the id is what Jenkins' own context said when the launch started, not anything the build wrote
        try (ACLContext ignored = ACL.as2(ACL.SYSTEM2)) {
            return Run.fromExternalizableId(runId);
        }
    }

    private static String key(@CheckForNull final String node, final String id) {
        return (node == null ? "" : node) + '\n' + id;
    }
}
