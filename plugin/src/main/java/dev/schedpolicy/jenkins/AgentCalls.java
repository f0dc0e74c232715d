package dev.schedpolicy.jenkins;

import dev.schedpolicy.engine.agent.AgentBenchmark;
import dev.schedpolicy.engine.agent.BenchmarkCaps;
import dev.schedpolicy.engine.agent.AgentLimits;
import dev.schedpolicy.engine.agent.BlockStart;
import dev.schedpolicy.engine.agent.CgroupParents;
import dev.schedpolicy.engine.agent.GuardRecord;
import dev.schedpolicy.engine.agent.LaunchRecord;
import dev.schedpolicy.engine.agent.LaunchRequest;
import dev.schedpolicy.engine.agent.PreparedLaunch;
import dev.schedpolicy.engine.agent.MeasureCollection;
import dev.schedpolicy.engine.agent.SchedPolicyAgent;
import dev.schedpolicy.engine.agent.UsageRecord;
import dev.schedpolicy.engine.fleet.AgentSummary;
import java.io.Serial;
import hudson.model.TaskListener;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import jenkins.security.MasterToSlaveCallable;

/**
 * The remoting calls: each copies its arguments and calls one {@link SchedPolicyAgent} method in the
 * agent JVM (or in the controller JVM for the built-in node), where the handshake registry lives.
 */
final class AgentCalls {
    private AgentCalls() {
    }

    /** On the agent: the engine merges, checks and tries the block's policy there. */
    static final class StartBlock extends MasterToSlaveCallable<BlockStart, RuntimeException> {
        @Serial
        private static final long serialVersionUID = 2L;
        private final LaunchRequest request;

        StartBlock(final LaunchRequest request) {
            this.request = request;
        }

        @Override
        public BlockStart call() {
            AgentConnection.watch();
            return SchedPolicyAgent.startBlock(request);
        }
    }

    /**
     * On the agent: the engine prepares one launch of the command line the launcher is about to start (it places a
     * container start under the policy and decides about an exec into a container).
     */
    static final class Prepare extends MasterToSlaveCallable<PreparedLaunch, RuntimeException> {
        @Serial
        private static final long serialVersionUID = 2L;
        private final LaunchRequest request;

        Prepare(final LaunchRequest request) {
            this.request = request;
        }

        @Override
        public PreparedLaunch call() {
            AgentConnection.watch();
            return SchedPolicyAgent.prepare(request);
        }
    }

    /** Measures a prepared launch from its release on; returns why not, or "". */
    static final class Measure extends MasterToSlaveCallable<String, RuntimeException> {
        @Serial
        private static final long serialVersionUID = 1L;
        private final String id;
        private final String label;
        private final String owner;

        /** {@code owner}: the full name of the launch's job, which readers of its neighbours' figures are checked against; "" for none. */
        Measure(final String id, final String label, final String owner) {
            this.id = id;
            this.label = label;
            this.owner = owner;
        }

        @Override
        public String call() {
            return SchedPolicyAgent.measure(id, label, owner);
        }
    }

    /**
     * The figures of measured launches: at the end of a build once their processes ended (waiting up to
     * {@code waitSeconds}, then ending them), as the build goes those that ended, at once.
     */
    static final class CollectMeasures extends MasterToSlaveCallable<MeasureCollection, RuntimeException> {
        @Serial
        private static final long serialVersionUID = 1L;
        private final ArrayList<String> ids;
        private final int waitSeconds;
        private final boolean endRunning;

        CollectMeasures(final List<String> ids, final int waitSeconds, final boolean endRunning) {
            this.ids = new ArrayList<>(ids);
            this.waitSeconds = waitSeconds;
            this.endRunning = endRunning;
        }

        @Override
        public MeasureCollection call() {
            return SchedPolicyAgent.collectMeasures(ids, waitSeconds, endRunning);
        }
    }

    /** Guards a prepared launch from its release on; returns why not, or "". */
    static final class Guard extends MasterToSlaveCallable<String, RuntimeException> {
        @Serial
        private static final long serialVersionUID = 1L;
        private final String id;
        private final String label;
        private final String owner;

        Guard(final String id, final String label, final String owner) {
            this.id = id;
            this.label = label;
            this.owner = owner;
        }

        @Override
        public String call() {
            return SchedPolicyAgent.guard(id, label, owner);
        }
    }

    /** The guard records of a withSchedGuard block's launches on one agent, once their guards have ended. */
    static final class CollectGuards extends MasterToSlaveCallable<ArrayList<GuardRecord>, RuntimeException> {
        @Serial
        private static final long serialVersionUID = 1L;
        private final ArrayList<String> ids;
        private final int waitSeconds;

        CollectGuards(final List<String> ids, final int waitSeconds) {
            this.ids = new ArrayList<>(ids);
            this.waitSeconds = waitSeconds;
        }

        @Override
        public ArrayList<GuardRecord> call() {
            return new ArrayList<>(SchedPolicyAgent.collectGuards(ids, waitSeconds));
        }
    }

    static final class Release extends MasterToSlaveCallable<LaunchRecord, RuntimeException> {
        @Serial
        private static final long serialVersionUID = 1L;
        private final String id;
        private final int timeoutSeconds;

        Release(final String id, final int timeoutSeconds) {
            this.id = id;
            this.timeoutSeconds = timeoutSeconds;
        }

        @Override
        public LaunchRecord call() {
            return SchedPolicyAgent.release(id, Duration.ofSeconds(timeoutSeconds));
        }
    }

    static final class Abort extends MasterToSlaveCallable<Void, RuntimeException> {
        @Serial
        private static final long serialVersionUID = 1L;
        private final String id;
        private final String reason;

        Abort(final String id, final String reason) {
            this.id = id;
            this.reason = reason;
        }

        @Override
        public Void call() {
            SchedPolicyAgent.abort(id, reason);
            return null;
        }
    }

    static final class FinishBlock extends MasterToSlaveCallable<UsageRecord, RuntimeException> {
        @Serial
        private static final long serialVersionUID = 1L;
        private final String blockKey;
        /** The block's groups from the build's record: another registry made them if the agent reconnected or restarted. */
        private final ArrayList<String> recordedGroups;

        FinishBlock(final String blockKey, final List<String> recordedGroups) {
            this.blockKey = blockKey;
            this.recordedGroups = new ArrayList<>(recordedGroups);
        }

        @Override
        public UsageRecord call() {
            return SchedPolicyAgent.finishBlock(blockKey, recordedGroups);
        }
    }

    /** On the agent: the engine runs the request under the administrator's limits, streaming progress to the log. */
    static final class RunBenchmark extends MasterToSlaveCallable<String, RuntimeException> {
        @Serial
        private static final long serialVersionUID = 1L;
        private final String runKey;
        private final AgentBenchmark.Request request;
        private final AgentLimits limits;
        private final String agentDefault;
        private final BenchmarkCaps caps;
        private final TaskListener listener;
        // made here, on the controller: the progress lines are printed on the agent, which need not load the Messages
        private final String linePrefix = Messages.Console_line("");

        /**
         * @param agentDefault the node's default policy: the engine floors every process of the benchmark by it
         * @param caps         the administrator's caps, which the engine checks against the benchmark's plan on the agent
         */
        RunBenchmark(final String runKey, final AgentBenchmark.Request request, final AgentLimits limits, final String agentDefault,
                final BenchmarkCaps caps, final TaskListener listener) {
            this.runKey = runKey;
            this.request = request;
            this.limits = limits;
            this.agentDefault = agentDefault;
            this.caps = caps;
            this.listener = listener;
        }

        @Override
        public String call() {
            return AgentBenchmark.run(runKey, request, limits, agentDefault, caps,
                    line -> listener.getLogger().println(linePrefix + line));
        }
    }

    static final class CancelBenchmark extends MasterToSlaveCallable<Boolean, RuntimeException> {
        @Serial
        private static final long serialVersionUID = 1L;
        private final String runKey;
        private final String why;

        CancelBenchmark(final String runKey, final String why) {
            this.runKey = runKey;
            this.why = why;
        }

        @Override
        public Boolean call() {
            return AgentBenchmark.cancel(runKey, why);
        }
    }

    /**
     * On the agent: the engine probes the machine for launch groups under the node's cgroup parent and sums it up for
     * the fleet view. The answer is the summary's JSON: plain text crosses remoting's class filter as it is.
     */
    static final class ProbeSummary extends MasterToSlaveCallable<String, RuntimeException> {
        @Serial
        private static final long serialVersionUID = 1L;
        private final String cgroupParent;

        ProbeSummary(final String cgroupParent) {
            this.cgroupParent = cgroupParent;
        }

        @Override
        public String call() {
            // made as the agent connects: an earlier JVM's guard may have left other builds lowered
            SchedPolicyAgent.putBackLowered();
            return AgentSummary.probe(CgroupParents.parse(cgroupParent)).toJson();
        }
    }
}
