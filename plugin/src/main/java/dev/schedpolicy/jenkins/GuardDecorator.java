package dev.schedpolicy.jenkins;

import edu.umd.cs.findbugs.annotations.NonNull;
import hudson.Launcher;
import hudson.LauncherDecorator;
import hudson.model.Node;
import java.io.Serial;
import java.io.Serializable;

/**
 * A {@code withSchedGuard} block's launcher decoration: every launch of the body keeps whatever policy and floor apply
 * to it (the node's default, an enclosing block's) and is marked guarded; a launch nothing polices goes through
 * park-and-release at {@code normal}, as a node that only measures does, so the agent knows its processes.
 */
final class GuardDecorator extends LauncherDecorator implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;

    private final String guardKey;

    GuardDecorator(final String guardKey) {
        this.guardKey = guardKey;
    }

    @NonNull
    @Override
    public Launcher decorate(@NonNull final Launcher launcher, @NonNull final Node node) {
        if (launcher instanceof PolicedLauncher p) {
            return new PolicedLauncher(p.getInner(), p.settings().guarded(guardKey));
        }
        if (!launcher.isUnix()) {
            return launcher;
        }
        return new PolicedLauncher(launcher, NodeDefaults.settings("normal",
                NodeDefaultLauncherDecorator.BLOCK_KEY + ":" + node.getNodeName(), null, node).guarded(guardKey));
    }
}
