package dev.schedpolicy.jenkins;

import dev.schedpolicy.engine.agent.PreparedLaunch;
import dev.schedpolicy.engine.buildpage.LaunchName;
import dev.schedpolicy.engine.buildpage.UnmeasuredLaunches;
import edu.umd.cs.findbugs.annotations.CheckForNull;
import hudson.model.InvisibleAction;
import hudson.model.Run;
import hudson.remoting.VirtualChannel;
import hudson.util.DaemonThreadFactory;
import hudson.util.NamingThreadFactory;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.logging.Level;
import java.util.logging.Logger;
import jenkins.util.SystemProperties;
import jenkins.util.Timer;

/**
 * The launches of a build that its agents measure and whose figures the controller has not collected yet (in
 * build.xml when Jenkins saves the build). Every {@link #batch()} launches their figures are collected in the background
 * as the build goes (the agent keeps a bounded number of ended launches for all its builds), the rest by
 * {@link MeasureCollector} at the end; so the list stays short, and a launch costs no write of build.xml (a save per
 * launch wrote the whole growing list each time: quadratic in the launches). The build is the one Jenkins runs the
 * launch for ({@link LaunchBuilds}), never one the launch's environment names.
 */
public class MeasuredLaunches extends InvisibleAction {
    private static final Logger LOGGER = Logger.getLogger(MeasuredLaunches.class.getName());
    /** System property: launches between two collections while the build runs (default {@value #DEFAULT_BATCH}). */
    static final String BATCH_PROPERTY = MeasuredLaunches.class.getName() + ".batch";
    /** A round trip per agent every 100 launches, and at most about that many entries in build.xml. */
    private static final int DEFAULT_BATCH = 100;
    /** After a collection that found launches still running, the next one at the latest. */
    private static final int FOLLOW_UP_SECONDS = 5;
    /** Collections of all builds in the background: each waits at most for its agents' answers. */
    private static final ExecutorService COLLECTIONS = collections();

    /**
     * One measured launch: where it ran, its id in that agent's registry, how it is named, its policy, and where in the
     * build it ran (stage, parallel branch, step: "" when not known; null in builds saved before they were recorded).
     */
    static final class Pending {
        final String node;
        final String id;
        final String label;
        final String policy;
        final String stage;
        final String branch;
        final String step;

        Pending(final String node, final String id, final LaunchName name, final String policy) {
            this.node = node;
            this.id = id;
            this.label = name.text();
            this.policy = policy;
            this.stage = name.stage();
            this.branch = name.branch();
            this.step = name.step().text();
        }
    }

    private final List<Pending> pending = new ArrayList<>();
    /** Launches the agent would not measure, by its reason, not yet moved to the build's figures (null in older builds). */
    private LinkedHashMap<String, Integer> unmeasured;
    /** The reasons not to measure that the console said (again after a restart, which is rare and harmless). */
    private transient Set<String> said;
    /** One collection of this build at a time; the end's waits for one in the background. Made anew after a restart. */
    private transient volatile ReentrantLock collecting;
    private transient boolean queued;
    /** Whether the console said that the build's steps are measured (again after a restart: rare and harmless). */
    private transient boolean toldMeasured;
    private transient int nextCollectionAt;

    private static ExecutorService collections() {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(2, 2, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                new NamingThreadFactory(new DaemonThreadFactory(), "Sched Policy measure collection"));
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    synchronized List<Pending> take() {
        List<Pending> all = List.copyOf(pending);
        pending.clear();
        return all;
    }

    private synchronized void add(final Pending p) {
        pending.add(p);
    }

    /**
     * Counts a launch the agent would not measure, so the page says it (a build whose work ran in containers); whether
     * the build's console has yet to hear this reason (at most {@link UnmeasuredLaunches#MAX_REASONS} are said).
     */
    private synchronized boolean unmeasured(final String reason) {
        if (unmeasured == null) {
            unmeasured = new LinkedHashMap<>();
        }
        UnmeasuredLaunches.count(unmeasured, reason);
        if (said == null) {
            said = new HashSet<>();
        }
        return said.size() < UnmeasuredLaunches.MAX_REASONS && said.add(reason);
    }

    private synchronized Map<String, Integer> takeUnmeasured() {
        Map<String, Integer> all = unmeasured == null ? Map.of() : Map.copyOf(unmeasured);
        unmeasured = null;
        return all;
    }

    /** Puts launches still running back, and sets when the next collection is due. */
    private synchronized void putBack(final List<Pending> running) {
        pending.addAll(0, running);
        nextCollectionAt = pending.size() + batch();
        queued = false;
    }

    /** Whether a collection is due now (and, if so, marks it queued). */
    private synchronized boolean collectionDue() {
        if (queued || pending.size() < Math.max(batch(), nextCollectionAt)) {
            return false;
        }
        queued = true;
        return true;
    }

    /** Marks a follow-up collection queued unless one is. */
    private synchronized boolean claim() {
        if (queued) {
            return false;
        }
        queued = true;
        return true;
    }

    static int batch() {
        return Math.max(1, SystemProperties.getInteger(BATCH_PROPERTY, DEFAULT_BATCH));
    }

    private synchronized ReentrantLock collecting() {
        if (collecting == null) {
            collecting = new ReentrantLock();
        }
        return collecting;
    }

    /**
     * Collects the figures of the launches not collected yet into the build's {@link MeasureBuildAction} (its own file),
     * and saves the build when it still runs (the list in build.xml got shorter). At the end ({@code atEnd}) launches
     * still running are ended and lost ones are said in words; as the build goes they stay for later.
     */
    void collect(final Run<?, ?> run, final boolean atEnd) {
        ReentrantLock lock = collecting();
        lock.lock();
        try {
            AgentMeasures.Gathered g = AgentMeasures.gather(take(), atEnd);
            putBack(g.running());
            Map<String, Integer> notMeasured = takeUnmeasured();
            boolean collected = !g.launches().isEmpty() || !g.missing().isEmpty() || !notMeasured.isEmpty();
            if (collected) {
                MeasureBuildAction before = run.getAction(MeasureBuildAction.class);
                MeasureResult result = before == null ? new MeasureResult() : new MeasureResult(before.getResult());
                g.launches().forEach(result::add);
                g.missing().forEach(result::missing);
                result.notMeasured(notMeasured);
                run.replaceAction(new MeasureBuildAction(run, result));
            }
            if (!atEnd && collected) {
                run.save();
            }
            if (!atEnd && !g.running().isEmpty()) {
                // launches end a few seconds after their step (durable-task's heartbeat): their figures then reach the
                // page while the build runs, not only at its end
                Timer.get().schedule(() -> {
                    if (run.isBuilding() && claim()) {
                        COLLECTIONS.execute(() -> collect(run, false));
                    }
                }, FOLLOW_UP_SECONDS, TimeUnit.SECONDS);
            }
        } catch (IOException | RuntimeException e) {
            LOGGER.log(Level.WARNING, "cannot collect the measured launches of " + run, e);
        } finally {
            lock.unlock();
        }
    }

    /**
     * The build's last collection (its launches still running are ended) and the list's removal, once: by the flow's
     * end for a Pipeline build, by {@link MeasureCollector} for any other.
     */
    static void collectAtEnd(final Run<?, ?> run) {
        MeasuredLaunches launches = run.getAction(MeasuredLaunches.class);
        if (launches == null) {
            return;
        }
        launches.collect(run, true);
        run.removeAction(launches);
    }

    /**
     * Asks the agent to measure the prepared launch when {@code settings} say so; a refusal is logged, never fatal. The
     * launch is named by the policy it runs under, the one the agent floored ({@link PreparedLaunch#policy()}): in a
     * {@code node {}} nested in a block the author's request is not what runs.
     */
    static void measure(final VirtualChannel channel, final LaunchSettings settings, final PreparedLaunch prepared,
            final PrintStream log) {
        if (!settings.measure()) {
            return;
        }
        String id = prepared.id();
        Run<?, ?> run = LaunchBuilds.of(settings.runId());
        String policy = prepared.policy().isEmpty() ? settings.policy() : prepared.policy();
        LaunchName name = run == null ? LaunchName.outsideBuild(policy) : name(run, policy);
        try {
            String refused = channel.call(new AgentCalls.Measure(id, name.text(), run == null ? "" : run.getParent().getFullName()));
            if (!refused.isEmpty()) {
                // the page counts them too: a build whose work all ran in containers must not look measured by the
                // few launches outside them; the console says each reason once a build (one per sh step would be noise)
                if (run == null || of(run).unmeasured(refused)) {
                    log.println(Messages.Console_notMeasured(refused));
                }
                return;
            }
        } catch (IOException | InterruptedException | RuntimeException e) {
            log.println(Messages.Console_notMeasured(e.getMessage()));
            return;
        }
        if (run != null) {
            MeasuredLaunches a = of(run);
            a.add(new Pending(settings.node() == null ? "" : settings.node(), id, name, policy));
            if (a.collectionDue()) {
                MeasuredLaunches due = a;
                COLLECTIONS.execute(() -> due.collect(run, false));
            }
        }
    }

    /**
     * Says once a build that its steps are measured, not lowered, and where their figures go (instead of a line per
     * launch); a launch outside a build says nothing.
     */
    static void sayMeasuredOnce(@CheckForNull final Run<?, ?> run, final PrintStream log) {
        if (run != null && of(run).firstMeasuredLine()) {
            log.println(Messages.Console_measuredSteps(Messages.Page_measure()));
        }
    }

    private synchronized boolean firstMeasuredLine() {
        boolean first = !toldMeasured;
        toldMeasured = true;
        return first;
    }

    /** The build's list of launches to collect, added on its first launch. */
    private static MeasuredLaunches of(final Run<?, ?> run) {
        synchronized (run) {
            MeasuredLaunches a = run.getAction(MeasuredLaunches.class);
            if (a == null) {
                a = new MeasuredLaunches();
                run.addAction(a);
            }
            return a;
        }
    }

    /**
     * The launch named as its reader knows it: the build, and the Pipeline step or freestyle build step launching on
     * this thread when there is one (the launch runs on the thread of the step that asked for it).
     */
    private static LaunchName name(final Run<?, ?> run, final String policy) {
        String build = run.getParent().getFullDisplayName() + " #" + run.getNumber();
        LaunchName name = PipelineSteps.name(run, build, policy);
        if (name == null) {
            name = FreestyleSteps.name(run, build, policy);
        }
        return name != null ? name : new LaunchName(build, "", "", LaunchName.Step.NONE, policy);
    }
}
