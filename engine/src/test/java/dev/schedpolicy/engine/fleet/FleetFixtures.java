package dev.schedpolicy.engine.fleet;

import dev.schedpolicy.engine.cgroup.IdleParent;
import dev.schedpolicy.engine.probe.AgentAdvice;
import dev.schedpolicy.engine.probe.Capability;
import dev.schedpolicy.engine.probe.ProbeReport;
import dev.schedpolicy.engine.probe.Recommendation;
import dev.schedpolicy.engine.probe.TaskGroupScope;
import java.util.List;
import java.util.Map;

/** Agents as the probe would summarise them, set up in the few ways a fleet's agents are. */
final class FleetFixtures {
    static final String PARENT = "/sys/fs/cgroup/cpu/schedpolicy.idle";
    private static final IdleParent.Status USABLE = new IdleParent.Status(PARENT, true, true, true, "usable");

    private FleetFixtures() {
    }

    /** Launch groups under the idle parent: reach MACHINE. */
    static AgentSummary underIdleParent() {
        return summary(true, USABLE, PARENT, 0, "root");
    }

    /** No cgroup parent set, so groups go under the agent's own cgroup: AGENT_GROUP, fix "set the cgroup parent". */
    static AgentSummary ownCgroup() {
        return summary(true, USABLE, "/sys/fs/cgroup/cpu/agent", 0, "root");
    }

    /** An agent user that cannot write cgroups: TASK_GROUP, fix "hand the idle parent to jenkins". */
    static AgentSummary noCgroups(final String user) {
        return summary(false, new IdleParent.Status(PARENT, true, true, false, "permission denied"), PARENT, 1001, user);
    }

    private static AgentSummary summary(final boolean cgroups, final IdleParent.Status parent, final String launchParent,
            final int euid, final String user) {
        List<Capability> caps = List.of(new Capability("nice", true, "ok"), new Capability("idle", true, "ok"),
                new Capability("weight", cgroups, cgroups ? "ok" : "permission denied"),
                new Capability("cpu-idle", cgroups, cgroups ? "ok" : "permission denied"));
        ProbeReport probe = new ProbeReport(1, "6.18.0", 2, euid, caps, "hybrid", "v1 at /sys/fs/cgroup/cpu", launchParent,
                cgroups, Map.of(), true, new TaskGroupScope("cgroup /agent", 1, 50, List.of(), List.of()));
        return AgentSummary.of(new AgentAdvice(probe, parent, Recommendation.of(probe, parent), null), user);
    }

    static FleetRow row(final String name, final List<String> labels, final boolean online, final ProbeResult probe) {
        return new FleetRow(name, false, labels, online, probe, false, null, "none", List.of());
    }
}
