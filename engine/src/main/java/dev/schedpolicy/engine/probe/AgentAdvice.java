package dev.schedpolicy.engine.probe;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.schedpolicy.engine.cgroup.CgroupException;
import dev.schedpolicy.engine.cgroup.CgroupSystem;
import dev.schedpolicy.engine.cgroup.IdleParent;
import dev.schedpolicy.engine.jna.JnaKernel;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The probe's report with what it concludes for this agent: the machine-wide idle parent's state and the
 * recommended policy. This is what {@code schedpolicy probe --json} prints and what the plugin shows on a
 * node's page; the report's own fields stay at the top level of the JSON.
 *
 * @param probe          what this user can apply here
 * @param idleParent     the machine-wide idle parent (see {@link IdleParent})
 * @param recommendation the one policy to use, with its reason
 * @param questions      what protects the agent's own executors and what its neighbours, as bench answers them
 */
public record AgentAdvice(@JsonUnwrapped ProbeReport probe, IdleParent.Status idleParent, Recommendation recommendation,
        TwoQuestions questions) {

    /**
     * Probes this machine for the calling user.
     *
     * @param cgroupParent where launch groups would go (empty: the caller's own cpu cgroup)
     * @param idleParent   the idle parent to look for (empty: the default place, see {@link IdleParent#of})
     */
    public static AgentAdvice gather(final Optional<Path> cgroupParent, final Optional<Path> idleParent) {
        ProbeReport report = Probe.system(cgroupParent).run();
        IdleParent.Status status;
        try {
            CgroupSystem system = CgroupSystem.detect();
            IdleParent parent = idleParent.map(p -> IdleParent.at(system, p)).orElseGet(() -> IdleParent.of(system));
            status = parent.status(JnaKernel.get().geteuid());
        } catch (CgroupException | java.io.UncheckedIOException e) {
            status = new IdleParent.Status(idleParent.map(Path::toString).orElse(IdleParent.NAME), false, false, false,
                    "cannot be used here: " + e.getMessage());
        }
        return new AgentAdvice(report, status, Recommendation.of(report, status), TwoQuestions.of(report, status));
    }
}
