package dev.schedpolicy.jenkins;

import edu.umd.cs.findbugs.annotations.CheckForNull;
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
 *
 * <p>workflow-support decorates every launcher of the body with it, also those of a {@code node {}} nested in the
 * block ({@code DefaultStepContext.makeLauncher} passes the node the launch runs on). There the block's own request
 * runs under that node's default, cgroup parent and registry: the engine floors each launch by the default of the node
 * it runs on, and the block's end is sent to every node its launches ran on.
 */
final class SchedPolicyDecorator extends LauncherDecorator implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;

    private final LaunchSettings settings;
    /** The authors' layers (enclosing blocks and this one) without any node's default; null in older programs. */
    @CheckForNull
    private final String authored;

    SchedPolicyDecorator(final LaunchSettings settings, @CheckForNull final String authored) {
        this.settings = settings;
        this.authored = authored;
    }

    @NonNull
    @Override
    public Launcher decorate(@NonNull final Launcher launcher, @NonNull final Node node) {
        return PolicedLauncher.around(launcher, settingsFor(node));
    }

    /** The block's settings on the node it started on; on another node, its request under that node's own settings. */
    LaunchSettings settingsFor(final Node node) {
        if (NodeDefaults.nameOf(node).equals(settings.node())) {
            return settings.authored(authored);
        }
        return NodeDefaults.settings(authored != null ? authored : settings.policy(), settings.blockKey(), settings.runId(), node)
                .authored(authored);
    }
}
