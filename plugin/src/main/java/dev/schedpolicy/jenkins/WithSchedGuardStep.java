package dev.schedpolicy.jenkins;

import dev.schedpolicy.engine.agent.GuardRule;
import edu.umd.cs.findbugs.annotations.NonNull;
import hudson.Extension;
import hudson.LauncherDecorator;
import hudson.model.Run;
import hudson.model.TaskListener;
import java.io.Serial;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.jenkinsci.plugins.workflow.steps.BodyExecutionCallback;
import org.jenkinsci.plugins.workflow.steps.BodyInvoker;
import org.jenkinsci.plugins.workflow.steps.GeneralNonBlockingStepExecution;
import org.jenkinsci.plugins.workflow.steps.Step;
import org.jenkinsci.plugins.workflow.steps.StepContext;
import org.jenkinsci.plugins.workflow.steps.StepDescriptor;
import org.jenkinsci.plugins.workflow.steps.StepExecution;
import org.kohsuke.stapler.DataBoundConstructor;

/**
 * {@code withSchedGuard { sh './run-tests' }}: while the body's launches wait for a CPU, the agent lowers its other,
 * unguarded launches, and puts them back after (the engine's guard). Only for jobs an administrator allows
 * ({@link SchedPolicyConfiguration#getGuardJobs()}); otherwise the body runs as it would without the step, and the
 * console says so in one line. The body's own launches are never raised. At the end, one line says what the guard did.
 */
public class WithSchedGuardStep extends Step {
    static final String KIND = "withSchedGuard";

    @DataBoundConstructor
    public WithSchedGuardStep() {
        // no options: who may guard is the administrator's setting, how the guard acts the agent's
    }

    @Override
    public StepExecution start(final StepContext context) {
        return new Execution(context);
    }

    /** Decides on the controller (the engine's {@link GuardRule}); the end collects the agents' records off the CPS thread. */
    static final class Execution extends GeneralNonBlockingStepExecution {
        @Serial
        private static final long serialVersionUID = 1L;

        Execution(final StepContext context) {
            super(context);
        }

        @Override
        public boolean start() throws Exception {
            StepContext context = getContext();
            String job = context.get(Run.class).getParent().getFullName();
            Optional<String> refusal = GuardRule.refusal(SchedPolicyConfiguration.get().getGuardJobs(), job);
            if (refusal.isPresent()) {
                context.get(TaskListener.class).getLogger().println(Messages.Console_line(refusal.get()));
                context.newBodyInvoker().withCallback(BodyExecutionCallback.wrap(context)).start();
                return false;
            }
            String key = "guard-" + UUID.randomUUID();
            context.newBodyInvoker()
                    .withContext(BodyInvoker.mergeLauncherDecorators(context.get(LauncherDecorator.class), new GuardDecorator(key)))
                    .withCallback(new Finish(key, GuardedSteps.session()))
                    .start();
            return false;
        }

        private final class Finish extends TailCall {
            @Serial
            private static final long serialVersionUID = 1L;
            private final String key;
            /** The controller's start the block began under; null in a block saved before this field. */
            private final String began;

            Finish(final String key, final String began) {
                this.key = key;
                this.began = began;
            }

            @Override
            protected void finished(final StepContext context) throws Exception {
                GuardedSteps.end(key, began, context.get(Run.class), context.get(TaskListener.class).getLogger());
            }
        }
    }

    @Extension
    public static class DescriptorImpl extends StepDescriptor {
        @Override
        public String getFunctionName() {
            return KIND;
        }

        @NonNull
        @Override
        public String getDisplayName() {
            return Messages.Step_withSchedGuard();
        }

        @Override
        public boolean takesImplicitBlockArgument() {
            return true;
        }

        @Override
        public Set<? extends Class<?>> getRequiredContext() {
            return Set.of(Run.class, TaskListener.class);
        }

        @Override
        public Set<? extends Class<?>> getProvidedContext() {
            return Set.of(LauncherDecorator.class);
        }
    }
}
