package dev.schedpolicy.jenkins;

import dev.schedpolicy.engine.agent.BlockRecord;
import dev.schedpolicy.engine.agent.LaunchRecord;
import dev.schedpolicy.engine.agent.UsageRecord;
import edu.umd.cs.findbugs.annotations.CheckForNull;
import hudson.model.Run;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.logging.Level;
import java.util.logging.Logger;
import jenkins.model.RunAction2;

/**
 * The build's policy blocks (requested and merged policy, each launch's kernel read-back, cgroup
 * usage), saved in build.xml and shown on the build page by summary.jelly. The records are the
 * engine's {@link BlockRecord}s; their classes are allowed by META-INF/hudson.remoting.ClassFilter.
 */
public class SchedPolicyAction implements RunAction2 {
    private static final Logger LOGGER = Logger.getLogger(SchedPolicyAction.class.getName());

    /** The id of the build page's Sched Policy entry (summary.jelly), which the console's reach line links to. */
    static final String ANCHOR = "schedpolicy-blocks";

    private final List<BlockRecord> blocks = new ArrayList<>();
    private transient Run<?, ?> run;
    /** Nodes whose reach line the console already has; after a restart a resumed build may say it once more. */
    private transient Set<String> reachNoted;

    /** The build's action, added on first use. */
    static SchedPolicyAction of(final Run<?, ?> run) {
        synchronized (run) {
            SchedPolicyAction a = run.getAction(SchedPolicyAction.class);
            if (a == null) {
                a = new SchedPolicyAction();
                run.addAction(a);
            }
            return a;
        }
    }

    void addBlock(final BlockRecord block) {
        synchronized (this) {
            blocks.add(block);
        }
        save();
    }

    /** Whether this is the build's first block on {@code node}, which gets the console's one line on what the policy cannot reach. */
    synchronized boolean firstReachNote(final String node) {
        if (reachNoted == null) {
            reachNoted = new HashSet<>();
        }
        return reachNoted.add(node);
    }

    void finishBlock(final String blockKey, final UsageRecord usage) {
        update(blockKey, b -> b.finished(usage));
    }

    void warn(final String blockKey, final String warning) {
        update(blockKey, b -> b.withWarning(warning));
    }

    private void update(final String blockKey, final UnaryOperator<BlockRecord> change) {
        boolean changed = false;
        synchronized (this) {
            for (int i = 0; i < blocks.size(); i++) {
                if (blocks.get(i).blockKey().equals(blockKey)) {
                    blocks.set(i, change.apply(blocks.get(i)));
                    changed = true;
                }
            }
        }
        // a launch of no block (a node default's) changes nothing: a save per launch wrote build.xml for every step
        if (changed) {
            save();
        }
    }

    /**
     * Called by {@link PolicedLauncher} after each verified launch with the build the launching thread knew; no-op for
     * launches outside a build's block.
     */
    static void recordLaunch(@CheckForNull final Run<?, ?> run, final String blockKey, final String node, final LaunchRecord launch) {
        // a build without a block has nothing to add the launch to: no empty record is attached for it
        SchedPolicyAction action = run == null ? null : run.getAction(SchedPolicyAction.class);
        if (action != null) {
            action.update(blockKey, b -> b.withLaunchOn(node, launch));
        }
    }

    public synchronized List<BlockRecord> getBlocks() {
        return List.copyOf(blocks);
    }

    @CheckForNull
    synchronized BlockRecord block(final String blockKey) {
        return blocks.stream().filter(b -> b.blockKey().equals(blockKey)).findFirst().orElse(null);
    }

    private void save() {
        if (run != null) {
            try {
                run.save();
            } catch (IOException e) {
                if (e instanceof java.nio.channels.ClosedByInterruptException || Thread.currentThread().isInterrupted()) {
                    // the build was stopped while a block started or ended (the step's thread is interrupted, and the
                    // write with it): the record is in memory and the build saves its actions again when it ends
                    Thread.currentThread().interrupt();
                    LOGGER.log(Level.FINE, "the save of the Sched Policy record of " + run + " was interrupted", e);
                    return;
                }
                LOGGER.log(Level.WARNING, "cannot save the Sched Policy record of " + run, e);
            }
        }
    }

    public Run<?, ?> getRun() {
        return run;
    }

    @Override
    public void onAttached(final Run<?, ?> r) {
        this.run = r;
    }

    @Override
    public void onLoad(final Run<?, ?> r) {
        this.run = r;
    }

    /** No side-panel link: the record is shown in the build page's summary. */
    @Override
    public String getIconFileName() {
        return null;
    }

    @Override
    public String getDisplayName() {
        return Messages.Page_schedPolicy();
    }

    @Override
    public String getUrlName() {
        return "schedPolicy";
    }
}
