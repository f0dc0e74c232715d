package dev.schedpolicy.jenkins;

import dev.schedpolicy.engine.agent.GuardSummary;
import hudson.model.Run;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;
import jenkins.model.RunAction2;
import org.kohsuke.stapler.export.Exported;
import org.kohsuke.stapler.export.ExportedBean;

/**
 * What the guard did for the build's {@code withSchedGuard} blocks, kept in build.xml and shown on the build page
 * (summary.jelly) and in its {@code api/json}: per block its wait for a CPU, with and without the guard acting, and the
 * launches it lowered, named only where the viewer may read their job ({@link Readers}), counted otherwise.
 */
@ExportedBean
public class GuardBuildAction implements RunAction2 {
    private static final Logger LOGGER = Logger.getLogger(GuardBuildAction.class.getName());
    /** Blocks a build keeps; a build that guards in a loop must not grow its build.xml without end. */
    static final int MAX_BLOCKS = 50;

    private final List<GuardSummary> blocks = new ArrayList<>();
    private final List<List<String>> unreachable = new ArrayList<>();
    /** Per kept block, how long its guards acted per node (null in builds saved before it was kept). */
    private List<Map<String, Long>> actingByNode = new ArrayList<>();
    /** Blocks beyond {@link #MAX_BLOCKS}, said but not kept. */
    private int dropped;
    private transient Run<?, ?> run;

    /** Adds a block's end to the build's action (made on first use) and saves the build. */
    static void add(final Run<?, ?> run, final GuardedSteps.Finished finished) {
        add(run, finished, true);
    }

    /**
     * Adds a block's end to the build's action; {@code save} false leaves it to the build's next save (at the latest its
     * completion): a Pipeline's save waits for its program's thread, which may be waiting for this very block's end.
     */
    static void add(final Run<?, ?> run, final GuardedSteps.Finished finished, final boolean save) {
        GuardBuildAction a;
        synchronized (run) {
            a = run.getAction(GuardBuildAction.class);
            if (a == null) {
                a = new GuardBuildAction();
                run.addAction(a);
            }
        }
        synchronized (a) {
            if (a.blocks.size() < MAX_BLOCKS) {
                a.blocks.add(finished.summary());
                a.unreachable.add(List.copyOf(finished.unreachable()));
                if (a.actingByNode == null) {
                    a.actingByNode = new ArrayList<>();
                }
                a.actingByNode.add(new LinkedHashMap<>(finished.actingByNode()));
            } else {
                a.dropped++;
            }
        }
        if (!save) {
            return;
        }
        try {
            run.save();
        } catch (IOException e) {
            LOGGER.log(Level.WARNING, "cannot save the guard's record of " + run, e);
        }
    }

    /** One guarded block as the current viewer may see it. */
    @ExportedBean(defaultVisibility = 2)
    public static final class Block {
        private final GuardSummary summary;
        private final List<String> unreachable;

        Block(final GuardSummary summary, final List<String> unreachable) {
            this.summary = summary;
            this.unreachable = unreachable;
        }

        @Exported
        public double getWaitSeconds() {
            return summary.waitMillis() / 1000.0;
        }

        @Exported
        public double getRunnableSeconds() {
            return summary.runnableMillis() / 1000.0;
        }

        /** The part of the wait before the guard lowered anything (or while it had nothing lowered). */
        @Exported
        public double getWaitUnloweredSeconds() {
            return summary.unloweredMillis() / 1000.0;
        }

        @Exported
        public double getActingSeconds() {
            return summary.actingMillis() / 1000.0;
        }

        @Exported
        public int getActions() {
            return summary.actions();
        }

        @Exported
        public int getLoweredLaunches() {
            return summary.loweredLaunches();
        }

        @Exported
        public int getLoweredTimes() {
            return summary.loweredTimes();
        }

        @Exported
        public boolean isRestored() {
            return summary.restored();
        }

        /** The launches it lowered: names of jobs the viewer may read, then how many others. */
        @Exported
        public List<String> getLowered() {
            return summary.names(Readers::mayRead);
        }

        @Exported
        public List<String> getUnreachable() {
            return unreachable;
        }

        /** The block's line as this viewer may read it. */
        @Exported
        public String getLine() {
            return new GuardedSteps.Finished(summary, unreachable).line(Readers::mayRead);
        }
    }

    @Exported(name = "guardedBlocks")
    public synchronized List<Block> getBlocks() {
        List<Block> out = new ArrayList<>();
        for (int i = 0; i < blocks.size(); i++) {
            out.add(new Block(blocks.get(i), i < unreachable.size() ? unreachable.get(i) : List.of()));
        }
        return out;
    }

    /** How long the kept blocks' guards acted, per node ("" the built-in node), for the fleet view. */
    synchronized Map<String, Long> actingByNode() {
        Map<String, Long> out = new LinkedHashMap<>();
        if (actingByNode != null) {
            actingByNode.forEach(m -> m.forEach((node, millis) -> out.merge(node, millis, Long::sum)));
        }
        return out;
    }

    @Exported
    public synchronized int getDroppedBlocks() {
        return dropped;
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
        return Messages.Page_guard();
    }

    @Override
    public String getUrlName() {
        return null;
    }
}
