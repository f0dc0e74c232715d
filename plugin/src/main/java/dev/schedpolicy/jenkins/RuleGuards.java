package dev.schedpolicy.jenkins;

import dev.schedpolicy.engine.agent.GuardRules;
import edu.umd.cs.findbugs.annotations.CheckForNull;
import edu.umd.cs.findbugs.annotations.NonNull;
import hudson.Extension;
import hudson.model.AbstractBuild;
import hudson.model.Node;
import hudson.model.Run;
import hudson.model.TaskListener;
import hudson.model.listeners.RunListener;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;
import jenkins.model.Jenkins;
import org.jenkinsci.plugins.workflow.graph.BlockStartNode;
import org.jenkinsci.plugins.workflow.graph.FlowNode;

/**
 * The administrator's rules that guard without {@code withSchedGuard}, applied at each launch: the global stage, whole-job
 * and label rules ({@link SchedPolicyConfiguration}) and a node's own stage and whole-job rules
 * ({@link SchedPolicyNodeProperty}). The engine's {@link GuardRules} decides from the launch's job, its stages and whether
 * its node matches the label rule ({@link GuardLabels}); here the block gets its key, a stage's start node or the build,
 * and its end: a stage's and a Pipeline build's in {@link StageGuards}, a freestyle build's at its completion ({@link End}).
 */
final class RuleGuards {
    private static final String BUILD_KEY_PREFIX = "build-guard:";

    private RuleGuards() {
    }

    /**
     * Whether a rule may guard launches on {@code node}: then its launcher is decorated, to let the rules decide per
     * launch (the others go on as they would).
     */
    static boolean on(@CheckForNull final Node node) {
        return rulesOn(node).anyOn() || GuardLabels.matches(SchedPolicyConfiguration.get().getGuardLabel(), node);
    }

    /**
     * {@code settings}, guarded for the block a rule picks for the launch starting on this thread; unchanged when the
     * launch is guarded already (withSchedGuard, the freestyle wrapper), or no rule picks it.
     */
    static LaunchSettings apply(final LaunchSettings settings) {
        if (settings.guardKey() != null) {
            return settings;
        }
        Node node = nodeNamed(settings.node());
        GuardRules rules = rulesOn(node);
        String label = SchedPolicyConfiguration.get().getGuardLabel();
        if (!rules.anyOn() && label == null) {
            return settings;
        }
        Run<?, ?> run = LaunchBuilds.of(settings.runId());
        if (run == null) {
            return settings;
        }
        FlowNode step = rules.needsStages() ? PipelineSteps.nodeStartingHere(run) : null;
        List<BlockStartNode> stages = step == null ? List.of() : PipelineSteps.stagesAround(step);
        List<String> names = new ArrayList<>();
        for (BlockStartNode s : stages) {
            names.add(s.getDisplayName());
        }
        Optional<GuardRules.Guarding> guarding = rules.guarding(run.getParent().getFullName(), names,
                GuardLabels.matches(label, node));
        if (guarding.isEmpty()) {
            return settings;
        }
        return settings.guarded(guarding.get().stage().isPresent()
                ? StageGuards.key(run, stages.get(guarding.get().stage().getAsInt()).getId()) : buildKey(run));
    }

    /** The key of the block that is the whole build {@code run}, as the whole-job and label rules guard it. */
    static String buildKey(final Run<?, ?> run) {
        return BUILD_KEY_PREFIX + run.getExternalizableId();
    }

    /** The rules in force on {@code node}: its own stage and whole-job rules over the global ones. */
    static GuardRules rulesOn(@CheckForNull final Node node) {
        GuardRules global = SchedPolicyConfiguration.get().toGuardRules();
        SchedPolicyNodeProperty p = node == null ? null : node.getNodeProperties().get(SchedPolicyNodeProperty.class);
        return p == null ? global : global.onNode(p.getGuardStages(), p.getGuardWholeJobs());
    }

    /** The node of launch settings ("" the built-in node); null when it is gone, or settings saved before it was kept. */
    @CheckForNull
    private static Node nodeNamed(@CheckForNull final String name) {
        if (name == null) {
            return null;
        }
        return name.isEmpty() ? Jenkins.get() : Jenkins.get().getNode(name);
    }

    /**
     * Ends a freestyle build's rule-guarded block once it has completed, publishers included: its one console line and its
     * entry on the build's page (a Pipeline's ends at its flow's end, {@link StageGuards}).
     */
    @Extension
    public static class End extends RunListener<AbstractBuild<?, ?>> {
        private static final Logger LOGGER = Logger.getLogger(End.class.getName());

        @Override
        public void onCompleted(final AbstractBuild<?, ?> build, @NonNull final TaskListener listener) {
            String key = buildKey(build);
            if (!GuardedSteps.isOpen(key)) {
                return;
            }
            try {
                GuardedSteps.end(key, build, listener.getLogger());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                LOGGER.log(Level.WARNING, "cannot end the guard of " + build, e);
            }
        }
    }
}
