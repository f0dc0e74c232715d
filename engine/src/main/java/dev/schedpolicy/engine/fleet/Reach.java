package dev.schedpolicy.engine.fleet;

/**
 * How far a build lowered on an agent can give way: the question an administrator of many agents has. The kernel
 * weighs nice and SCHED_IDLE only inside one task group, and a cpu.idle group only against its siblings, so the answer
 * depends on where the agent's groups can go, not on the policy alone.
 */
public enum Reach {
    /**
     * Launch groups are made under the machine-wide idle parent (or at the top of the hierarchy), where a cpu.idle group
     * yields to every task group.
     */
    MACHINE("every task group on the machine (services, containers, other agents, sessions)"),
    /**
     * Launch groups are made elsewhere: under the agent's own cgroup (no cgroup parent set) or a cgroup parent that is not
     * the idle parent. A cpu.idle group there yields to its siblings only and holds that cgroup's full share against the
     * rest, whether or not the machine has an idle parent.
     */
    AGENT_GROUP("only the other groups in the cgroup where builds' groups are made (the agent's own, or its cgroup parent);"
            + " against other task groups a build still gets that cgroup's full share"),
    /** Only per-task policies (nice, batch, idle) work: they reach the agent's own task group and nothing else. */
    TASK_GROUP("the agent's own task group only (nice, batch and idle are weighed inside one task group)");

    private final String words;

    Reach(final String words) {
        this.words = words;
    }

    /** The reach in a table cell's few words: "machine", "agent group", "task group". */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ');
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
