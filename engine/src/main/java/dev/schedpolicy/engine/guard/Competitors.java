package dev.schedpolicy.engine.guard;

import java.util.List;
import java.util.Set;

/**
 * Who competes with the guarded step: the processes the guard is allowed to lower (for the CLI, the caller's own;
 * on a Jenkins agent, the agent's other launches) that used a CPU recently.
 */
public interface Competitors {
    /**
     * Called every scan period: reads who is busy now.
     *
     * @param exclude PIDs never to return (the guarded step's processes, the guard's own JVM)
     */
    void scan(Set<Long> exclude);

    /** The busy ones of the last scan. */
    List<Competitor> busy();
}
