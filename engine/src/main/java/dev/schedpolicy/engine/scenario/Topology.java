package dev.schedpolicy.engine.scenario;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Where the background sits relative to the victim, i.e. whether they share a task group. Nice and per-task
 * SCHED_IDLE act only between tasks of one task group (a cgroup, or an autogroup = a session when autogroup is
 * on and the tasks are in the root cpu cgroup); cgroup controls act between sibling groups.
 */
public enum Topology {
    /** Victim and background are children of the benchmark: one session, one cgroup (builds of one agent). */
    SAME_GROUP("same-group"),
    /** Every background copy starts in a new session (setsid): its own autogroup where autogroup is on. */
    OTHER_SESSION("other-session"),
    /** Victim and every background copy each in a sibling cgroup, the way agents, services or containers sit. */
    OTHER_CGROUP("other-cgroup"),
    /**
     * Every background copy in its own container of a local image (a build container), started through the container
     * placement with its policy's cgroup parts; the victim on the host: "my test job runs beside build containers".
     */
    CONTAINER("container"),
    /**
     * The topology this machine gives the agent's neighbours: other-session when autogroup is on and the
     * benchmark runs in the root cpu cgroup, else other-cgroup. Resolved when the benchmark starts.
     */
    MACHINE("machine");

    private final String id;

    Topology(final String id) {
        this.id = id;
    }

    public String id() {
        return id;
    }

    /** Whether per-task policies (nice, batch, idle) of the background reach the victim in this topology. */
    public boolean sharesTaskGroup() {
        return this == SAME_GROUP;
    }

    public static Topology parse(final String text) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        return Arrays.stream(values()).filter(v -> v.id.equals(t)).findFirst().orElseThrow(() ->
                new IllegalArgumentException("unknown topology '" + text.strip() + "'; use " + ids()));
    }

    /** Parses a comma-separated list such as {@code same-group,other-cgroup}. */
    public static List<Topology> parseList(final String text) {
        List<Topology> out = new ArrayList<>();
        for (String part : text.split(",", -1)) {
            out.add(parse(part));
        }
        return out;
    }

    public static String ids() {
        return Arrays.stream(values()).map(Topology::id).collect(Collectors.joining(", "));
    }

    /** What {@link #MACHINE} means on a machine: other-session only where sessions are task groups. */
    public static Topology machine(final boolean autogroupOn, final boolean inRootCpuCgroup) {
        return autogroupOn && inRootCpuCgroup ? OTHER_SESSION : OTHER_CGROUP;
    }
}
