package dev.schedpolicy.jenkins;

import edu.umd.cs.findbugs.annotations.NonNull;
import hudson.Launcher;
import hudson.LauncherDecorator;
import hudson.model.Node;
import java.io.Serial;
import java.io.Serializable;

/**
 * A block's launcher decoration, merged into the body context with
 * {@code BodyInvoker.mergeLauncherDecorators} (the pattern of ShellStepTest's NiceStep in
 * workflow-durable-task-step-plugin). Serializable: it is saved with the Pipeline program.
 */
final class SchedPolicyDecorator extends LauncherDecorator implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;

    private final LaunchSettings settings;

    SchedPolicyDecorator(final LaunchSettings settings) {
        this.settings = settings;
    }

    @NonNull
    @Override
    public Launcher decorate(@NonNull final Launcher launcher, @NonNull final Node node) {
        return PolicedLauncher.around(launcher, settings);
    }
}
