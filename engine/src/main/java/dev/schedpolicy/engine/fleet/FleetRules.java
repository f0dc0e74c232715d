package dev.schedpolicy.engine.fleet;

import dev.schedpolicy.engine.cgroup.IdleParent;
import dev.schedpolicy.engine.probe.Capability;
import dev.schedpolicy.engine.probe.ProbeReport;
import java.nio.file.Path;

/**
 * The fleet view's decisions from one agent's probe. They follow what the kernel does (design notes, "Group
 * scheduling"): nice and SCHED_IDLE act inside one task group; a cpu.idle group is idle only against its siblings, so it
 * protects machine-wide only where the agent's launch groups are made (the probe's cgroup parent: the node's, or the
 * agent's own cgroup when it has none) is the idle parent or below it, or the top of the hierarchy.
 */
final class FleetRules {
    private FleetRules() {
    }

    static Reach reach(final ProbeReport probe, final IdleParentState parent) {
        boolean cpuIdle = usable(probe, "cpu-idle");
        // a parent whose cpu.idle is not 1 competes at full weight at the top: groups under it yield only to each other
        if (cpuIdle && (underIdleParent(probe, parent) && parent.idle() || atTop(probe))) {
            return Reach.MACHINE;
        }
        if (cpuIdle || usable(probe, "weight")) {
            return Reach.AGENT_GROUP;
        }
        return Reach.TASK_GROUP;
    }

    /** The fix for an agent whose builds cannot protect across task groups: one command where one command does it. */
    static Fix fix(final ProbeReport probe, final IdleParentState parent) {
        if (probe.cpuController().equals("none")) {
            return new Fix("Mount or enable the cpu controller", null, "no cpu cgroup controller is mounted here (layout "
                    + probe.cgroupMode() + "), so only nice, batch and idle work, inside the agent's own task group: mount the"
                    + " cpu controller (v1) or enable it (v2), then run 'schedpolicy setup'");
        }
        if (probe.cpuController().endsWith("(read-only)")) {
            return new Fix("Start the agent's container under the idle parent", null, "the cpu controller is mounted read-only ("
                    + probe.cpuController() + "), as in a container: on the host, run 'schedpolicy setup' and start the"
                    + " agent's container with --cgroup-parent=/" + IdleParent.NAME);
        }
        String then = underIdleParent(probe, parent) ? "" : "; then set the cgroup parent to " + parent.path() + " (builds' groups"
                + " now go under " + launchWords(probe) + ")";
        if (!parent.exists()) {
            return new Fix("Create the idle parent", parent.setupCommand(), "the machine-wide idle parent " + parent.path()
                    + " does not exist; a build's cpu.idle group under it would yield to every other task group" + then);
        }
        if (!parent.idle()) {
            return new Fix("Repair the idle parent", parent.setupCommand(), parent.path() + " exists but its cpu.idle is not 1"
                    + then);
        }
        if (!parent.usable()) {
            if (probe.cgroupMode().equals("v2") && probe.euid() != 0) {
                return new Fix("Let the agent's user move processes (cgroup v2)", null, parent.detail() + then);
            }
            return new Fix("Hand the idle parent to the agent's user", parent.setupCommand(), parent.path() + " is not usable by "
                    + userWords(probe) + ": " + parent.detail() + then);
        }
        if (!underIdleParent(probe, parent)) {
            return new Fix("Set the cgroup parent to the idle parent", null, "builds' groups go under " + launchWords(probe)
                    + ", where a cpu.idle group yields only to its siblings; the idle parent " + parent.path() + " is set up"
                    + " and usable: set the cgroup parent (node property, or the global one) to it");
        }
        return new Fix("Use a kernel with cpu.idle", null, "cpu.idle groups cannot be made here: " + probe.capability("cpu-idle")
                .map(Capability::detail).orElse("not probed") + " (cpu.idle needs Linux 5.15 or later)");
    }

    /** Whether launch groups are made in the idle parent or below it. */
    private static boolean underIdleParent(final ProbeReport probe, final IdleParentState parent) {
        return probe.cgroupParent() != null && real(probe.cgroupParent()).startsWith(real(parent.path()));
    }

    /** Whether launch groups are made at the top of the cpu hierarchy, beside every other top-level group. */
    private static boolean atTop(final ProbeReport probe) {
        String controller = probe.cpuController().replace(" (read-only)", "");
        int at = controller.indexOf(" at ");
        return probe.cgroupParent() != null && at >= 0 && real(probe.cgroupParent()).equals(real(controller.substring(at + 4)));
    }

    /**
     * The path with symlinks resolved where it exists (the rules run on the agent, so a parent typed through systemd's
     * /sys/fs/cgroup/cpu link matches the idle parent found under cpu,cpuacct), else as written.
     */
    private static Path real(final String path) {
        Path p = Path.of(path).normalize();
        try {
            return p.toRealPath();
        } catch (java.io.IOException | SecurityException e) {
            return p;
        }
    }

    private static String launchWords(final ProbeReport probe) {
        return probe.cgroupParent() == null ? "no usable cgroup" : probe.cgroupParent();
    }

    private static String userWords(final ProbeReport probe) {
        return "the agent's user (uid " + probe.euid() + ")";
    }

    private static boolean usable(final ProbeReport probe, final String capability) {
        return probe.capability(capability).map(Capability::usable).orElse(false);
    }
}
