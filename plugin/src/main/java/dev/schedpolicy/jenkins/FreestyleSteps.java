package dev.schedpolicy.jenkins;

import dev.schedpolicy.engine.buildpage.LaunchName;
import edu.umd.cs.findbugs.annotations.CheckForNull;
import hudson.Extension;
import hudson.model.AbstractBuild;
import hudson.model.BuildListener;
import hudson.model.BuildStepListener;
import hudson.model.Describable;
import hudson.model.Run;
import hudson.tasks.BuildStep;

/**
 * Which freestyle build step a launch comes from: a freestyle build performs its steps one after another on its
 * executor's thread, between {@link #started} and {@link #finished}, and the step launches on that thread.
 */
@Extension
public class FreestyleSteps extends BuildStepListener {
    /** The build (externalizable id) and the display name of the step performing on this thread. */
    private static final ThreadLocal<String[]> PERFORMING = new ThreadLocal<>();

    @Override
    public void started(final AbstractBuild build, final BuildStep bs, final BuildListener listener) {
        if (bs instanceof Describable<?> d) {
            PERFORMING.set(new String[] {build.getExternalizableId(), d.getDescriptor().getDisplayName()});
        }
    }

    @Override
    public void finished(final AbstractBuild build, final BuildStep bs, final BuildListener listener, final boolean canContinue) {
        PERFORMING.remove();
    }

    /** The launch on this thread named by its build step of {@code run}, e.g. {@code Execute shell}; null when none. */
    @CheckForNull
    static LaunchName name(final Run<?, ?> run, final String build, final String policy) {
        String[] performing = PERFORMING.get();
        if (performing == null || !performing[0].equals(run.getExternalizableId())) {
            return null;
        }
        return new LaunchName(build, "", "", LaunchName.Step.of(performing[1], null), policy);
    }
}
