package dev.schedpolicy.jenkins;

import dev.schedpolicy.engine.agent.LaunchName;
import hudson.model.InvisibleAction;
import hudson.model.Run;
import hudson.remoting.VirtualChannel;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The launches of a build that its agents measure, until {@link MeasureCollector} collects their figures at the end of
 * the build (saved in build.xml meanwhile). The build is the one Jenkins runs the launch for ({@link LaunchBuilds}),
 * never one the launch's environment names.
 */
public class MeasuredLaunches extends InvisibleAction {
    private static final Logger LOGGER = Logger.getLogger(MeasuredLaunches.class.getName());

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
            this.step = name.step();
        }
    }

    private final List<Pending> pending = new ArrayList<>();

    synchronized List<Pending> take() {
        List<Pending> all = List.copyOf(pending);
        pending.clear();
        return all;
    }

    /** Asks the agent to measure the prepared launch when {@code settings} say so; a refusal is logged, never fatal. */
    static void measure(final VirtualChannel channel, final LaunchSettings settings, final String id, final PrintStream log) {
        if (!settings.measure()) {
            return;
        }
        Run<?, ?> run = LaunchBuilds.of(settings.runId());
        String policy = settings.policy();
        LaunchName name = run == null ? LaunchName.outsideBuild(policy) : name(run, policy);
        try {
            String refused = channel.call(new AgentCalls.Measure(id, name.text()));
            if (!refused.isEmpty()) {
                log.println("[schedpolicy] not measured: " + refused);
                return;
            }
        } catch (IOException | InterruptedException | RuntimeException e) {
            log.println("[schedpolicy] not measured: " + e.getMessage());
            return;
        }
        if (run != null) {
            MeasuredLaunches a;
            synchronized (run) {
                a = run.getAction(MeasuredLaunches.class);
                if (a == null) {
                    a = new MeasuredLaunches();
                    run.addAction(a);
                }
            }
            synchronized (a) {
                a.pending.add(new Pending(settings.node() == null ? "" : settings.node(), id, name, policy));
            }
            try {
                run.save();
            } catch (IOException e) {
                LOGGER.log(Level.WARNING, "cannot save the measured launches of " + run, e);
            }
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
        return name != null ? name : new LaunchName(build, "", "", "", policy);
    }
}
