package dev.schedpolicy.engine.fleet;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schedpolicy.engine.probe.AgentAdvice;
import dev.schedpolicy.engine.probe.Capability;
import dev.schedpolicy.engine.probe.ProbeReport;
import dev.schedpolicy.engine.probe.Recommendation;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * One agent's row of the fleet view: what the probe found there, reduced to what an administrator of many agents
 * compares, with the conclusions drawn once, here: how far a lowered build can give way ({@link Reach}) and, where that
 * is not across task groups, the fix. Made on the agent ({@link #probe}) and sent to the controller as JSON (text
 * crosses Jenkins' remoting class filter without allow-listing every record).
 *
 * @param kernel                uname release
 * @param cpus                  online CPUs
 * @param user                  the agent's login name
 * @param euid                  its effective user ID
 * @param layout                cgroup layout: v1, v2, hybrid, none or unknown
 * @param cpuController         where the cpu controller is mounted, or "none"
 * @param cpuControllerWritable whether the agent can create cpu cgroups where its launch groups go
 * @param autogroup             whether autogroup is on
 * @param taskGroup             the agent's task group, e.g. "cgroup /system.slice/jenkins-agent.service"
 * @param otherProcesses        processes in other task groups when probed: per-task policies do not reach them
 * @param capabilities          the probe's table: each policy part tried for real
 * @param idleParent            the machine-wide idle parent
 * @param recommendation        the one policy to use here, with its reason
 * @param reach                 how far a lowered build gives way here
 * @param fix                   what makes builds here protect across task groups; null when they already do
 */
public record AgentSummary(String kernel, int cpus, String user, int euid, String layout, String cpuController,
        boolean cpuControllerWritable, boolean autogroup, String taskGroup, int otherProcesses, List<Capability> capabilities,
        IdleParentState idleParent, Recommendation recommendation, Reach reach, Fix fix) {
    private static final ObjectMapper JSON = new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    public AgentSummary {
        capabilities = List.copyOf(capabilities);
        if (reach == null || reach.acrossTaskGroups() != (fix == null)) {
            throw new IllegalArgumentException("an agent needs a fix exactly when its builds cannot protect across task groups"
                    + " (reach " + reach + ", fix " + fix + ")");
        }
    }

    /** Probes this machine as the calling user, for launch groups under {@code cgroupParent} (empty: the caller's cgroup). */
    public static AgentSummary probe(final Optional<Path> cgroupParent) {
        return of(AgentAdvice.gather(cgroupParent, Optional.empty()), System.getProperty("user.name", "unknown"));
    }

    /** The summary of a probe's advice; {@code user} is the agent's login name, for the commands shown. */
    public static AgentSummary of(final AgentAdvice advice, final String user) {
        ProbeReport probe = advice.probe();
        IdleParentState parent = IdleParentState.of(advice.idleParent(), user, probe.euid());
        Reach reach = FleetRules.reach(probe, parent);
        Fix fix = reach.acrossTaskGroups() ? null : FleetRules.fix(probe, parent);
        return new AgentSummary(probe.kernel(), probe.cpus(), user, probe.euid(), probe.cgroupMode(), probe.cpuController(),
                probe.cgroupParentUsable(), probe.autogroup(), probe.scope().taskGroup(), probe.scope().otherProcesses(),
                probe.capabilities(), parent, advice.recommendation(), reach, fix);
    }

    /** Whether the fleet view singles this agent out: its builds cannot protect test jobs in other task groups. */
    public boolean standsOut() {
        return !reach.acrossTaskGroups();
    }

    /** The recommended policy and where its group goes: "cpu-idle under /sys/fs/cgroup/cpu/schedpolicy.idle". */
    public String recommended() {
        return recommendation.policy() + (recommendation.cgroupParent() == null ? "" : " under " + recommendation.cgroupParent());
    }

    public String toJson() {
        try {
            return JSON.writeValueAsString(this);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the agent summary as JSON: " + e.getMessage(), e);
        }
    }

    /** @throws IllegalArgumentException when the text is not a summary this version reads */
    public static AgentSummary fromJson(final String json) {
        try {
            return JSON.readValue(json, AgentSummary.class);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("the agent's summary is not readable: " + e.getOriginalMessage(), e);
        }
    }
}
