package dev.schedpolicy.engine.fleet;

import dev.schedpolicy.engine.probe.Capability;
import dev.schedpolicy.engine.probe.ProbeReport;
import dev.schedpolicy.engine.probe.Recommendation;

/**
 * The fleet view's decisions from one agent's probe. They follow what the kernel does (design notes, "Group
 * scheduling"): nice and SCHED_IDLE act inside one task group; a cpu.idle group is idle only against its siblings, so it
 * protects machine-wide only under the idle parent or beside the top-level groups.
 */
final class FleetRules {
    private FleetRules() {
    }

    static Reach reach(final ProbeReport probe, final IdleParentState parent) {
        boolean cpuIdle = usable(probe, "cpu-idle");
        // a parent whose cpu.idle is not 1 competes at full weight at the top: groups under it yield only to each other
        if (cpuIdle && (parent.usable() && parent.idle() || Recommendation.atTop(probe.scope()))) {
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
            return new Fix(null, "no cpu cgroup controller is mounted here (layout " + probe.cgroupMode() + "), so only nice,"
                    + " batch and idle work, inside the agent's own task group: mount the cpu controller (v1) or enable it"
                    + " (v2), then run 'schedpolicy setup'");
        }
        if (probe.cpuController().endsWith("(read-only)")) {
            return new Fix(null, "the cpu controller is mounted read-only (" + probe.cpuController() + "), as in a container:"
                    + " on the host, run 'schedpolicy setup' and start the agent's container with"
                    + " --cgroup-parent=/" + dev.schedpolicy.engine.cgroup.IdleParent.NAME);
        }
        if (!parent.exists()) {
            return new Fix(parent.setupCommand(), "the machine-wide idle parent " + parent.path() + " does not exist; a build's"
                    + " cpu.idle group under it would yield to every other task group");
        }
        if (!parent.idle()) {
            return new Fix(parent.setupCommand(), parent.path() + " exists but its cpu.idle is not 1");
        }
        if (!parent.usable()) {
            if (probe.cgroupMode().equals("v2") && probe.euid() != 0) {
                return new Fix(null, parent.detail());
            }
            return new Fix(parent.setupCommand(), parent.path() + " is not usable by " + userWords(probe) + ": "
                    + parent.detail());
        }
        return new Fix(null, "cpu.idle groups cannot be made here: " + probe.capability("cpu-idle").map(Capability::detail)
                .orElse("not probed") + " (cpu.idle needs Linux 5.15 or later)");
    }

    private static String userWords(final ProbeReport probe) {
        return "the agent's user (uid " + probe.euid() + ")";
    }

    private static boolean usable(final ProbeReport probe, final String capability) {
        return probe.capability(capability).map(Capability::usable).orElse(false);
    }
}
