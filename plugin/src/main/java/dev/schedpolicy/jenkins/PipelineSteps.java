package dev.schedpolicy.jenkins;

import dev.schedpolicy.engine.buildpage.LaunchName;
import edu.umd.cs.findbugs.annotations.CheckForNull;
import edu.umd.cs.findbugs.annotations.NonNull;
import hudson.Extension;
import hudson.model.Run;
import java.io.IOException;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import org.jenkinsci.plugins.workflow.actions.ArgumentsAction;
import org.jenkinsci.plugins.workflow.actions.LabelAction;
import org.jenkinsci.plugins.workflow.actions.ThreadNameAction;
import org.jenkinsci.plugins.workflow.flow.StepListener;
import org.jenkinsci.plugins.workflow.graph.BlockStartNode;
import org.jenkinsci.plugins.workflow.graph.FlowNode;
import org.jenkinsci.plugins.workflow.graph.StepNode;
import org.jenkinsci.plugins.workflow.steps.Step;
import org.jenkinsci.plugins.workflow.steps.StepContext;
import org.jenkinsci.plugins.workflow.steps.StepDescriptor;

/**
 * Which Pipeline step a launch comes from. Pipeline tells every {@link StepListener} of a step on the program's thread
 * right before it starts the step there, and {@code sh}/{@code bat} start their process inside that start, on the same
 * thread: so the step starting last on the launching thread is the launch's step. A launch from any other thread (a
 * step that works in the background, e.g. {@code checkout}) finds nothing here, or a step of another build or one that
 * ended, which {@link #name} refuses: such a launch is named by its build only.
 */
@Extension
public class PipelineSteps implements StepListener {
    private static final ThreadLocal<WeakReference<StepContext>> STARTING = new ThreadLocal<>();

    @Override
    public void notifyOfNewStep(@NonNull final Step step, @NonNull final StepContext context) {
        STARTING.set(new WeakReference<>(context));
    }

    /**
     * The build of the step starting on this thread, as its context gives it; null when none is starting here (the step
     * ended, or its build did: a pooled thread keeps the last step it ran).
     */
    @CheckForNull
    static Run<?, ?> runStartingHere() {
        WeakReference<StepContext> ref = STARTING.get();
        StepContext context = ref == null ? null : ref.get();
        if (context == null) {
            return null;
        }
        try {
            Run<?, ?> run = context.get(Run.class);
            FlowNode node = context.get(FlowNode.class);
            return run != null && run.isBuilding() && node != null && node.isActive() ? run : null;
        } catch (IOException | InterruptedException | RuntimeException e) {
            return null;
        }
    }

    /**
     * The flow node of {@code run}'s step starting on this thread; null when none of run's steps is starting here (see
     * {@link #runStartingHere}).
     */
    @CheckForNull
    static FlowNode nodeStartingHere(final Run<?, ?> run) {
        WeakReference<StepContext> ref = STARTING.get();
        StepContext context = ref == null ? null : ref.get();
        if (context == null) {
            return null;
        }
        try {
            Run<?, ?> of = context.get(Run.class);
            FlowNode node = context.get(FlowNode.class);
            return of != null && node != null && node.isActive() && of.getExternalizableId().equals(run.getExternalizableId())
                    ? node : null;
        } catch (IOException | InterruptedException | RuntimeException e) {
            return null;
        }
    }

    /** The stages around {@code node}, innermost first, as {@link #where} finds a stage: parallel branches are not stages. */
    static List<BlockStartNode> stagesAround(final FlowNode node) {
        List<BlockStartNode> stages = new ArrayList<>();
        for (BlockStartNode b : node.iterateEnclosingBlocks()) {
            LabelAction label = b.getPersistentAction(LabelAction.class);
            if (b.getPersistentAction(ThreadNameAction.class) == null && label != null && label.getDisplayName() != null) {
                stages.add(b);
            }
        }
        return stages;
    }

    /** The launch on this thread named by its stage, branch and step of {@code run}; null when it is not one of run's steps. */
    @CheckForNull
    static LaunchName name(final Run<?, ?> run, final String build, final String policy) {
        FlowNode node = nodeStartingHere(run);
        try {
            return node == null ? null : where(node, build, policy);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /**
     * The innermost stage around {@code node} and a parallel branch inside it, as the Pipeline views find them: a block
     * with a {@link LabelAction} is a stage unless it is a branch ({@link ThreadNameAction}; a branch's label is both).
     * The step is its {@code label:} when given, else its first argument (a {@code sh} step's script).
     */
    static LaunchName where(final FlowNode node, final String build, final String policy) {
        String stage = "";
        String branch = "";
        for (BlockStartNode b : node.iterateEnclosingBlocks()) {
            ThreadNameAction thread = b.getPersistentAction(ThreadNameAction.class);
            if (thread != null) {
                branch = branch.isEmpty() ? thread.getThreadName() : branch;
                continue;
            }
            LabelAction label = b.getPersistentAction(LabelAction.class);
            if (label != null && label.getDisplayName() != null) {
                stage = label.getDisplayName();
                break;
            }
        }
        LabelAction own = node.getPersistentAction(LabelAction.class);
        String detail = own != null ? own.getDisplayName() : ArgumentsAction.getStepArgumentsAsString(node);
        return new LaunchName(build, stage, branch, LaunchName.Step.of(function(node), detail), policy);
    }

    /** {@code sh}: the step's function name (a labelled step's display function name carries its label too). */
    private static String function(final FlowNode node) {
        StepDescriptor d = node instanceof StepNode s ? s.getDescriptor() : null;
        return d != null ? d.getFunctionName() : node.getDisplayFunctionName();
    }
}
