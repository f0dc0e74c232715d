package dev.schedpolicy.engine.probe;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.schedpolicy.engine.cgroup.IdleParent;
import java.util.ArrayList;
import java.util.List;

/**
 * The one policy this machine and user should give builds, with its reason, from what the probe found:
 * where the tasks a build could slow down sit (this task group or others), whether cgroup controls can be
 * applied, and whether a machine-wide idle parent exists. Per-task policies (nice, batch, idle) act only
 * inside one task group; a cpu.idle group acts against its siblings, so it protects machine-wide only when it
 * sits at the top of the hierarchy: under the idle parent, or under the root cpu cgroup.
 *
 * @param policy       the compact policy, e.g. {@code cpu-idle} or {@code idle}
 * @param cgroupParent where its group must go ({@code --cgroup-parent}), or null when that does not matter
 * @param reason       why, in words
 * @param next         what an administrator could do to protect more, or null
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Recommendation(String policy, String cgroupParent, String reason, String next) {

    /** @param idleParent the machine-wide idle parent's state (see {@link IdleParent#status}) */
    public static Recommendation of(final ProbeReport probe, final IdleParent.Status idleParent) {
        boolean cpuIdle = usable(probe, "cpu-idle");
        boolean taskIdle = usable(probe, "idle");
        TaskGroupScope scope = probe.scope();
        boolean othersElsewhere = scope.otherProcesses() > 0;
        boolean atTop = atTop(scope);
        String setup = "an administrator can run 'schedpolicy setup --user <agent user>' (or add a systemd slice with"
                + " CPUWeight=idle, docs/usage.md) and builds then use cpu-idle under it";
        if (idleParent.works() && cpuIdle) {
            return new Recommendation("cpu-idle", idleParent.path(), "the machine-wide idle parent "
                    + idleParent.path() + " is set up and usable: a build's group under it yields to every other task"
                    + " group (other agents, services, containers, sessions); nice and idle would reach only "
                    + scope.taskGroup(), null);
        }
        if (othersElsewhere && cpuIdle && atTop) {
            // true only while the agent stays in the root cpu cgroup: the idle parent is what holds everywhere
            return new Recommendation("cpu-idle", null, scope.otherProcesses() + " processes run in other"
                    + " task groups, where nice and idle do not reach; this agent is in the root cpu cgroup, so its"
                    + " cpu.idle groups sit beside the other sessions' autogroups and the services' cgroups",
                    setup + ", so builds stay protected when the agent runs as a service or in a container");
        }
        if (othersElsewhere && cpuIdle) {
            return new Recommendation("cpu-idle", null, "a cpu.idle group under this agent's cgroup ("
                    + probe.cgroupParent() + ") protects the tasks of " + scope.taskGroup() + ", like idle would, and"
                    + " holds the build to the agent's share against the " + scope.otherProcesses()
                    + " processes in other task groups, which neither nice nor idle reach", setup);
        }
        String taskPolicy = taskIdle ? "idle" : "batch+nice19";
        List<String> why = new ArrayList<>();
        why.add(scope.sameGroupProcesses() + " other processes share " + scope.taskGroup() + ", where "
                + (taskIdle ? "SCHED_IDLE" : "nice 19") + " makes a build yield to them");
        if (othersElsewhere) {
            why.add(scope.otherProcesses() + " processes in other task groups are not protected: cgroup controls are"
                    + " not usable here (" + detail(probe, "cpu-idle") + ")");
        }
        return new Recommendation(taskPolicy, null, String.join("; ", why),
                othersElsewhere ? setup : null);
    }

    /**
     * Whether the agent's own cpu cgroup is the root, where its cpu.idle groups sit beside every other group (public for
     * the fleet view's rules, which must agree with the recommendation).
     */
    public static boolean atTop(final TaskGroupScope scope) {
        return scope.taskGroup().startsWith("autogroup") || scope.taskGroup().equals("cgroup /");
    }

    /** One line for the probe's output and the plugin's node page. */
    public String line() {
        return policy + (cgroupParent == null ? "" : " under " + cgroupParent) + ": " + reason;
    }

    private static boolean usable(final ProbeReport probe, final String capability) {
        return probe.capability(capability).map(Capability::usable).orElse(false);
    }

    private static String detail(final ProbeReport probe, final String capability) {
        return probe.capability(capability).map(Capability::detail).orElse("not probed");
    }
}
