package dev.schedpolicy.engine.fleet;

/**
 * How far a build lowered on an agent can give way: the question an administrator of many agents has. The kernel
 * weighs nice and SCHED_IDLE only inside one task group, and a cpu.idle group only against its siblings, so the answer
 * depends on where the agent's groups can go, not on the policy alone.
 */
public enum Reach {
    /** A cpu.idle group under the machine-wide idle parent (or beside the top-level groups): yields to every task group. */
    MACHINE("every task group on the machine (services, containers, other agents, sessions)"),
    /** A cpu.idle group under the agent's own cgroup: yields inside it, but holds the agent's full share against the rest. */
    AGENT_GROUP("the agent's own cgroup only; against other task groups a build still gets the agent's full share"),
    /** Only per-task policies (nice, batch, idle) work: they reach the agent's own task group and nothing else. */
    TASK_GROUP("the agent's own task group only (nice, batch and idle are weighed inside one task group)");

    private final String words;

    Reach(final String words) {
        this.words = words;
    }

    /** What a lowered build yields to, in words. */
    public String words() {
        return words;
    }

    /** Whether builds here protect test jobs in other task groups; the fleet view singles out agents where they do not. */
    public boolean acrossTaskGroups() {
        return this == MACHINE;
    }
}
