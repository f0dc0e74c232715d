package dev.schedpolicy.jenkins;

import edu.umd.cs.findbugs.annotations.NonNull;
import hudson.Extension;
import hudson.Launcher;
import hudson.LauncherDecorator;
import hudson.model.Node;

/**
 * Applies the node's (or the global) default policy to every launcher Jenkins creates for a node
 * ({@code Node.createLauncher} calls {@code Launcher.decorateFor}, which runs every LauncherDecorator
 * extension). Blocks and wrappers decorate outside this one and carry the merged policy.
 */
@Extension
public class NodeDefaultLauncherDecorator extends LauncherDecorator {
    static final String BLOCK_KEY = "node-default";

    @NonNull
    @Override
    public Launcher decorate(@NonNull final Launcher launcher, @NonNull final Node node) {
        String policy = NodeDefaults.policyFor(node);
        boolean onlyGuarded = false;
        if (policy == null && NodeDefaults.measureOn(node)) {
            // measured but not lowered: through park-and-release, so the launch joins its accounting group first
            policy = "normal";
        } else if (policy == null && RuleGuards.on(node)) {
            // the guard rules decide per launch, where its build and stage are known; the others stay as they are
            policy = "normal";
            onlyGuarded = true;
        }
        if (policy == null || !launcher.isUnix()) {
            return launcher;
        }
        LaunchSettings settings = NodeDefaults.settings(policy, BLOCK_KEY + ":" + node.getNodeName(), null, node);
        return new PolicedLauncher(launcher, onlyGuarded ? settings.guardedOnly() : settings);
    }
}
