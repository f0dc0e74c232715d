package dev.schedpolicy.jenkins;

import edu.umd.cs.findbugs.annotations.CheckForNull;
import hudson.Launcher;
import hudson.LauncherDecorator;
import hudson.model.Node;
import hudson.model.TaskListener;
import java.util.ArrayList;
import java.util.List;

/**
 * The launchers a block's body would launch through, as class names, outermost first: what the enclosing steps
 * (docker-workflow's inside, an enclosing block) put around the node's launcher. Only decorates, never launches: a
 * launch through the chain would run another step's side effects (a docker exec, a policy handshake).
 */
final class LauncherChain {
    private LauncherChain() {
    }

    static List<String> classesOf(@CheckForNull final LauncherDecorator around, @CheckForNull final Node node) {
        if (around == null || node == null) {
            return List.of();
        }
        List<String> names = new ArrayList<>();
        Launcher l = around.decorate(new Launcher.LocalLauncher(TaskListener.NULL), node);
        while (l != null) {
            names.add(l.getClass().getName());
            l = l instanceof Launcher.DecoratedLauncher d ? d.getInner() : null;
        }
        return names;
    }
}
