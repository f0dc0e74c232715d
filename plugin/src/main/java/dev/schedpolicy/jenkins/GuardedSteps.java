package dev.schedpolicy.jenkins;

import dev.schedpolicy.engine.agent.GuardRecord;
import dev.schedpolicy.engine.agent.GuardSummary;
import dev.schedpolicy.engine.agent.PreparedLaunch;
import hudson.model.Computer;
import hudson.model.Node;
import hudson.model.Run;
import hudson.remoting.VirtualChannel;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import jenkins.model.Jenkins;

/**
 * The launches of open {@code withSchedGuard} blocks, by block key and node: each is marked guarded on its agent before
 * its release, and at the block's end the agents' records make its one console line and its entry on the build's
 * page ({@link GuardBuildAction}). Held in the controller's memory
 * only: a block that outlives a controller restart says that the controller restarted (a guard ends with its agent's
 * connection, which the restart drops, and the agent's next JVM sends home what it lowered).
 */
final class GuardedSteps {
    /** How long the block's end waits for its launches' last processes (a shell step's script ends just after the step). */
    private static final int COLLECT_WAIT_SECONDS = 5;
    private static final Map<String, List<String[]>> LAUNCHES = new ConcurrentHashMap<>();
    /** This controller JVM: a block that began under another began before a restart, its launches unknown. */
    private static final String JVM = UUID.randomUUID().toString();

    private GuardedSteps() {
    }

    /** Marks the prepared launch guarded on its agent when its settings belong to a guarded block; a refusal is one line. */
    static void guard(final VirtualChannel channel, final LaunchSettings settings, final PreparedLaunch prepared,
            final PrintStream log) {
        String key = settings.guardKey();
        if (key == null) {
            return;
        }
        Run<?, ?> run = LaunchBuilds.of(settings.runId());
        String owner = run == null ? "" : run.getParent().getFullName();
        String label = run == null ? "" : run.getFullDisplayName();
        try {
            String refused = channel.call(new AgentCalls.Guard(prepared.id(), label, owner));
            if (!refused.isEmpty()) {
                log.println(Messages.Console_notGuarded(refused));
                return;
            }
        } catch (IOException | InterruptedException | RuntimeException e) {
            log.println(Messages.Console_notGuarded(e.getMessage()));
            return;
        }
        LAUNCHES.computeIfAbsent(key, k -> new CopyOnWriteArrayList<>())
                .add(new String[] {settings.node() == null ? "" : settings.node(), prepared.id()});
    }

    /**
     * What one block's guards did, from every agent its launches ran on.
     *
     * @param summary     the agents' records together
     * @param unreachable the nodes that did not answer (their launches' figures are not in the summary)
     * @param yields      the launches its guards lowered, per node, to be told to their builds
     * @param actingByNode how long its guards had something lowered, per node ("" the built-in node)
     */
    record Finished(GuardSummary summary, List<String> unreachable, List<Yield> yields, Map<String, Long> actingByNode) {
        Finished(final GuardSummary summary, final List<String> unreachable) {
            this(summary, unreachable, List.of(), Map.of());
        }

        /** The block's line for a reader who may read the jobs {@code mayName} accepts. */
        String line(final Predicate<String> mayName) {
            String line = summary.line(mayName);
            return unreachable.isEmpty() ? line : line + " (no answer from node " + String.join(", ", unreachable) + ")";
        }
    }

    /** A launch on {@code node} that the block's guards lowered, for how long and how many times. */
    record Yield(String node, String launch, long millis, int times) {
    }

    /** Whether a launch of the block or stage {@code key} reached its agent's guard and the block has not ended yet. */
    static boolean isOpen(final String key) {
        return LAUNCHES.containsKey(key);
    }

    /**
     * Ends the block or stage {@code key} of {@code run}: its one console line, which names launches of the build's own job
     * only (whoever reads this build reads its console), its entry on the build's page, and, for each build whose launches
     * it lowered, what they yielded ({@link YieldBuildAction}).
     */
    static void end(final String key, final Run<?, ?> run, final PrintStream log) throws InterruptedException {
        end(key, run, log, true);
    }

    /**
     * The same for a block that began under the controller's start {@code began} ({@link #session()} then): one that began
     * before a restart says so, since its guarded launches were known to the controller's memory only.
     */
    static void end(final String key, final String began, final Run<?, ?> run, final PrintStream log) throws InterruptedException {
        if (began == null || began.equals(session())) {
            end(key, run, log, true);
            return;
        }
        // what launches after the restart reached a guard is collected all the same, so their yields are told
        Finished after = finish(key);
        Finished finished = new Finished(GuardSummary.afterRestart(), after.unreachable(), after.yields(), after.actingByNode());
        log.println(Messages.Console_line(finished.line(run.getParent().getFullName()::equals)));
        GuardBuildAction.add(run, finished, true);
        credit(finished, run);
    }

    /**
     * The controller's start now, for {@link #end(String, String, Run, PrintStream)}: this JVM and its Jenkins instance (a
     * test harness restarts Jenkins in the same JVM).
     */
    static String session() {
        return JVM + "-" + Integer.toHexString(System.identityHashCode(Jenkins.get()));
    }

    /** The same, saving the build or leaving that to its next save ({@link GuardBuildAction#add(Run, Finished, boolean)}). */
    static void end(final String key, final Run<?, ?> run, final PrintStream log, final boolean save) throws InterruptedException {
        Finished finished = finish(key);
        String job = run.getParent().getFullName();
        log.println(Messages.Console_line(finished.line(job::equals)));
        GuardBuildAction.add(run, finished, save);
        credit(finished, run);
    }

    /** Tells each build whose launches the block's guards lowered what they yielded to {@code run}. */
    private static void credit(final Finished finished, final Run<?, ?> run) {
        for (Yield y : finished.yields()) {
            Run<?, ?> lowered = LaunchRuns.of(y.node(), y.launch());
            if (lowered != null) {
                YieldBuildAction.credit(lowered, run, y.node(), y.millis(), y.times());
            }
        }
    }

    /** Ends the block {@code key}: its guards' records from every agent its launches ran on. */
    static Finished finish(final String key) throws InterruptedException {
        List<String[]> launches = LAUNCHES.remove(key);
        Map<String, List<String>> byNode = new LinkedHashMap<>();
        for (String[] l : launches == null ? List.<String[]>of() : launches) {
            byNode.computeIfAbsent(l[0], k -> new ArrayList<>()).add(l[1]);
        }
        List<GuardRecord> records = new ArrayList<>();
        List<Yield> yields = new ArrayList<>();
        Map<String, Long> acting = new LinkedHashMap<>();
        List<String> unreachable = new ArrayList<>();
        int lost = 0;
        for (Map.Entry<String, List<String>> e : byNode.entrySet()) {
            Node node = e.getKey().isEmpty() ? Jenkins.get() : Jenkins.get().getNode(e.getKey());
            Computer computer = node == null ? null : node.toComputer();
            VirtualChannel channel = computer == null ? null : computer.getChannel();
            try {
                if (channel == null) {
                    unreachable.add(e.getKey());
                    continue;
                }
                List<GuardRecord> answered = channel.call(new AgentCalls.CollectGuards(e.getValue(), COLLECT_WAIT_SECONDS));
                // each launch the agent marked guarded has a record, unless the agent's connection or JVM ended meanwhile
                lost += Math.max(0, e.getValue().size() - answered.size());
                for (GuardRecord r : answered) {
                    records.add(r);
                    acting.merge(e.getKey(), r.actingMillis(), Long::sum);
                    r.yields().forEach(y -> yields.add(new Yield(e.getKey(), y.launch(), y.millis(), y.times())));
                }
            } catch (IOException | RuntimeException ex) {
                unreachable.add(e.getKey());
            }
        }
        return new Finished(GuardSummary.of(records, lost), List.copyOf(unreachable), List.copyOf(yields), Map.copyOf(acting));
    }
}
