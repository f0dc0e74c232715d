package dev.schedpolicy.jenkins;

import dev.schedpolicy.engine.agent.GuardRule;
import edu.umd.cs.findbugs.annotations.NonNull;
import hudson.Extension;
import hudson.Launcher;
import hudson.model.AbstractBuild;
import hudson.model.AbstractProject;
import hudson.model.BuildListener;
import hudson.model.Node;
import hudson.model.Run;
import hudson.model.TaskListener;
import hudson.model.listeners.RunListener;
import hudson.tasks.BuildWrapper;
import hudson.tasks.BuildWrapperDescriptor;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.jenkinsci.Symbol;
import org.kohsuke.stapler.DataBoundConstructor;

/**
 * Freestyle's {@code withSchedGuard} ("Guard this build's steps", symbol {@code schedGuard}): every launch of the build
 * is guarded as a withSchedGuard block's, through the same {@link GuardDecorator}, for jobs an administrator allows
 * ({@link GuardRule}); otherwise the build runs as it would, and the console says so in one line. Like
 * {@link SchedPolicyWrapper} it decorates the build's launcher ({@link BuildWrapper#decorateLauncher}), and the guard
 * ends when the build has completed, publishers included ({@link End}), with the block's one line and page entry.
 */
public class SchedGuardWrapper extends BuildWrapper {
    /** The guard key of each running build that guards, by the build's externalizable id (the controller's memory only). */
    private static final Map<String, String> GUARDING = new ConcurrentHashMap<>();

    @DataBoundConstructor
    public SchedGuardWrapper() {
        // no options: who may guard is the administrator's setting, how the guard acts the agent's
    }

    @Override
    public Launcher decorateLauncher(final AbstractBuild build, final Launcher launcher, final BuildListener listener) {
        String job = build.getParent().getFullName();
        Optional<String> refusal = GuardRule.refusal(SchedPolicyConfiguration.get().getGuardJobs(), job,
                Messages.Form_guardWrapperName(), "the build runs as it would without it");
        if (refusal.isPresent()) {
            listener.getLogger().println(Messages.Console_line(refusal.get()));
            return launcher;
        }
        Node node = build.getBuiltOn();
        if (node == null) {
            // the node was removed as the build started: nothing launches there, so there is nothing to guard
            return launcher;
        }
        String key = GUARDING.computeIfAbsent(build.getExternalizableId(), id -> "guard-" + UUID.randomUUID());
        return new GuardDecorator(key).decorate(launcher, node);
    }

    @Override
    public Environment setUp(final AbstractBuild build, final Launcher launcher, final BuildListener listener) {
        return new Environment() {
        };
    }

    /** Ends a guarding build's guard once it has completed: its one console line and its entry on the build's page. */
    @Extension
    public static class End extends RunListener<Run<?, ?>> {
        private static final Logger LOGGER = Logger.getLogger(End.class.getName());

        @Override
        public void onCompleted(final Run<?, ?> run, @NonNull final TaskListener listener) {
            String key = GUARDING.remove(run.getExternalizableId());
            if (key == null) {
                return;
            }
            try {
                GuardedSteps.end(key, run, listener.getLogger());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                LOGGER.log(Level.WARNING, "cannot end the guard of " + run, e);
            }
        }
    }

    @Extension
    @Symbol("schedGuard")
    public static class DescriptorImpl extends BuildWrapperDescriptor {
        @Override
        public boolean isApplicable(final AbstractProject<?, ?> item) {
            return true;
        }

        @NonNull
        @Override
        public String getDisplayName() {
            return Messages.Form_guardWrapper();
        }
    }
}
