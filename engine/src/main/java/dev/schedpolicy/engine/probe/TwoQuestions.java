package dev.schedpolicy.engine.probe;

import dev.schedpolicy.engine.cgroup.IdleParent;

/**
 * The probe's answers to the two questions {@code schedpolicy bench} measures, in the same order and words: which
 * per-task policy protects the other executors of this agent (one task group), and which cgroup policy protects
 * the neighbours outside it (other services, agents, containers, sessions). Outside the agent only a cpu.idle group
 * under the machine-wide idle parent reaches everything, so without that parent the answer is that nothing can
 * protect there until an administrator runs {@code schedpolicy setup}, as bench's outside-agent verdict says.
 *
 * @param sameAgent    the executors of the same agent
 * @param outsideAgent the neighbours outside the agent
 */
public record TwoQuestions(String sameAgent, String outsideAgent) {
    static final String SETUP = "sudo schedpolicy setup --user <agent user>";

    static TwoQuestions of(final ProbeReport probe, final IdleParent.Status idleParent) {
        TaskGroupScope scope = probe.scope();
        String perTask = usable(probe, "idle") ? "idle" : usable(probe, "nice") ? "batch+nice19" : null;
        String same = perTask == null
                ? "no per-task policy can be applied here (" + detail(probe, "idle") + ")"
                : perTask + " protects the " + scope.sameGroupProcesses() + " other processes of " + scope.taskGroup()
                        + ", where this agent's executors run: per-task policies act inside one task group";
        String others = "the " + scope.otherProcesses() + " processes in other task groups (other services, agents,"
                + " containers, sessions)";
        String outside;
        if (idleParent.works() && usable(probe, "cpu-idle")) {
            outside = "cpu-idle under the machine-wide idle parent " + idleParent.path() + " protects " + others;
        } else {
            outside = "nothing can protect " + others + " until an administrator runs '" + SETUP + "': "
                    + (idleParent.exists() ? "the machine-wide idle parent " + idleParent.path() + " is not usable ("
                            + idleParent.detail() + ")" : "there is no machine-wide idle parent at " + idleParent.path())
                    + (Recommendation.atTop(scope) && usable(probe, "cpu-idle")
                            ? "; from the root cpu cgroup, where this process runs, its own cpu.idle groups do sit at the"
                                    + " top beside them, but an agent run as a service or in a container gets that only"
                                    + " from the idle parent"
                            : "");
        }
        return new TwoQuestions(same, outside);
    }

    private static boolean usable(final ProbeReport probe, final String capability) {
        return probe.capability(capability).map(Capability::usable).orElse(false);
    }

    private static String detail(final ProbeReport probe, final String capability) {
        return probe.capability(capability).map(Capability::detail).orElse("not probed");
    }
}
