package dev.schedpolicy.jenkins;

import dev.schedpolicy.engine.agent.YieldLedger;
import hudson.model.InvisibleAction;
import hudson.model.Run;
import hudson.model.TaskListener;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;
import jenkins.util.Timer;
import org.kohsuke.stapler.export.Exported;
import org.kohsuke.stapler.export.ExportedBean;

/**
 * What a build's launches yielded to guarded steps ({@code withSchedGuard}, the stage rule, the freestyle wrapper) of
 * other builds on the same agents: kept in build.xml, shown on the build page (summary.jelly) and in its
 * {@code api/json}, and said in one console line at the build's end. The guarding builds are named only where the
 * viewer may read their job ({@link Readers}); the console, read by whoever reads this build, names those of its own job.
 * No side-panel link or page of its own: the build page's summary shows it.
 */
@ExportedBean
public class YieldBuildAction extends InvisibleAction {
    private static final Logger LOGGER = Logger.getLogger(YieldBuildAction.class.getName());

    /** The most nodes a build keeps its yielded time for (the fleet view's column); a further node's is not counted there. */
    static final int MAX_NODES = 50;

    private final YieldLedger ledger = new YieldLedger();
    /** How long its launches were lowered, per node ("" the built-in node), for the first {@link #MAX_NODES} nodes. */
    private LinkedHashMap<String, Long> millisByNode = new LinkedHashMap<>();
    /** Whether the build's console said it (at the end of its flow or build). */
    private boolean said;

    /**
     * Tells {@code lowered} that a guard of {@code guarding} kept one of its launches lowered for {@code millis}, {@code
     * times} times. Saved in the background: a Pipeline's save waits for its program's thread, and this runs at another
     * build's block end.
     */
    static void credit(final Run<?, ?> lowered, final Run<?, ?> guarding, final String node, final long millis,
            final int times) {
        YieldBuildAction a;
        synchronized (lowered) {
            a = lowered.getAction(YieldBuildAction.class);
            if (a == null) {
                a = new YieldBuildAction();
                lowered.addAction(a);
            }
        }
        a.ledger.add(guarding.getParent().getFullName(), guarding.getFullDisplayName(), millis, times);
        synchronized (a) {
            if (a.millisByNode == null) {
                a.millisByNode = new LinkedHashMap<>();
            }
            if (a.millisByNode.containsKey(node) || a.millisByNode.size() < MAX_NODES) {
                a.millisByNode.merge(node, millis, Long::sum);
            }
        }
        Timer.get().execute(() -> {
            try {
                lowered.save();
            } catch (IOException e) {
                LOGGER.log(Level.WARNING, "cannot save what " + lowered + " yielded", e);
            }
        });
    }

    /** The build's one console line, at its end, if its launches yielded; names guarding builds of its own job only. */
    static void sayAtEnd(final Run<?, ?> run, final TaskListener listener) {
        YieldBuildAction a = run.getAction(YieldBuildAction.class);
        if (a == null) {
            return;
        }
        synchronized (a) {
            if (a.said || a.ledger.isEmpty()) {
                return;
            }
            a.said = true;
        }
        String job = run.getParent().getFullName();
        listener.getLogger().println(Messages.Console_yielded(a.ledger.line(job::equals)));
    }

    /** How long its launches were lowered, per node ("" the built-in node), for the fleet view. */
    synchronized Map<String, Long> millisByNode() {
        return millisByNode == null ? Map.of() : new LinkedHashMap<>(millisByNode);
    }

    @Exported
    public double getYieldedSeconds() {
        return ledger.millis() / 1000.0;
    }

    @Exported
    public int getYieldedTimes() {
        return ledger.times();
    }

    /** The guarding builds with their times: names of jobs the viewer may read, then the others added up. */
    @Exported
    public List<String> getYieldedTo() {
        return ledger.names(Readers::mayRead);
    }

    /** The line as this viewer may read it. */
    @Exported
    public String getLine() {
        return ledger.line(Readers::mayRead);
    }
}
