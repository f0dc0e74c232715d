package dev.schedpolicy.engine.guard;

import dev.schedpolicy.engine.cgroup.CgroupSystem;
import dev.schedpolicy.engine.linux.Kernel;
import dev.schedpolicy.engine.proc.ProcFs;

import java.util.ArrayList;
import java.util.List;

/**
 * The ways this machine lets a guard lower others, the strongest first: an idle group of the guard's at the top of the
 * cpu hierarchy (reaches every task group), then SCHED_IDLE (only within the guarded step's task group, and only for
 * root, who can put it back). One choice for the command line and the Jenkins agent alike.
 *
 * @param lowerings what is usable here, strongest first; empty when nothing is
 * @param missing   why each missing way is missing, in words
 */
public record Lowerings(List<Lowering> lowerings, List<String> missing) {
    public Lowerings {
        lowerings = List.copyOf(lowerings);
        missing = List.copyOf(missing);
    }

    /**
     * Fresh lowerings (each guard makes and removes its own group), writing down in {@code homes} where what they move
     * came from, so that a guard killed meanwhile leaves nothing lowered once the next one starts.
     */
    public static Lowerings available(final Kernel kernel, final ProcFs proc, final GuardHomes homes) {
        List<Lowering> lowerings = new ArrayList<>();
        List<String> why = new ArrayList<>();
        try {
            CgroupSystem cgroups = CgroupSystem.detect();
            cgroups.cpuRoot();
            // what a guard killed before it could put back goes home before this one lowers anything
            homes.restoreStale(cgroups, proc);
            lowerings.add(new IdleGroupLowering(cgroups, proc, homes));
        } catch (RuntimeException e) {
            why.add("no cpu cgroup hierarchy (" + e.getMessage() + ")");
        }
        if (IdleClassLowering.usableBy(kernel)) {
            lowerings.add(new IdleClassLowering(kernel, proc));
        } else {
            why.add("SCHED_IDLE needs root to be put back");
        }
        return new Lowerings(lowerings, why);
    }

    public boolean none() {
        return lowerings.isEmpty();
    }
}
