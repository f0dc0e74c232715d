package dev.schedpolicy.jenkins;

import hudson.Extension;
import hudson.model.Node;
import jenkins.model.NodeListener;

/** Drops a node's probe from the fleet view's cache when the node is deleted or renamed. */
@Extension
public class FleetNodeListener extends NodeListener {
    @Override
    protected void onDeleted(final Node node) {
        FleetProbes.get().forget(FleetProbes.nameOf(node.getNodeName()));
    }

    @Override
    protected void onUpdated(final Node oldOne, final Node newOne) {
        if (!oldOne.getNodeName().equals(newOne.getNodeName())) {
            FleetProbes.get().forget(FleetProbes.nameOf(oldOne.getNodeName()));
        }
    }
}
