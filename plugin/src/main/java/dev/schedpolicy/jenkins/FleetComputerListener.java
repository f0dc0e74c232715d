package dev.schedpolicy.jenkins;

import hudson.Extension;
import hudson.model.Computer;
import hudson.model.TaskListener;
import hudson.slaves.ComputerListener;

/** Probes an agent for the fleet view as soon as it connects, in the background: its connection never waits for it. */
@Extension
public class FleetComputerListener extends ComputerListener {
    @Override
    public void onOnline(final Computer c, final TaskListener listener) {
        FleetProbes.get().probeConnected(c);
    }
}
