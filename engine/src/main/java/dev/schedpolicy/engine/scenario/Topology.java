package dev.schedpolicy.engine.scenario;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Where the background (a build) sits relative to the victim (a test job), named by what it means on a Jenkins
 * machine. It decides whether they share a task group: nice and per-task SCHED_IDLE act only between tasks of one
 * task group (a cgroup, or an autogroup = a session when autogroup is on and the tasks are in the root cpu
 * cgroup); cgroup controls act between sibling groups. Declared in the order the benchmark answers its questions:
 * first the agent's own executors, then the neighbours outside it.
 */
public enum Topology {
    /**
     * Executors of the same agent: the victim and the background are children of the benchmark, one session and
     * one cgroup, as two builds of one agent are children of its JVM.
     */
    SAME_AGENT("same-agent", "same-group", "Executors of the same agent",
            "builds of one agent share its cgroup and session, one task group"),
    /**
     * Neighbours outside the agent: the victim and every background copy each in a sibling cgroup, the way
     * services, containers and agents run as services sit; a copy's cgroup policy group goes under its own
     * cgroup (as under an agent's) unless a cgroup parent, such as the machine-wide idle parent, is in use.
     */
    OUTSIDE_AGENT("outside-agent", "other-cgroup", "Neighbours outside the agent",
            "other services, agents and containers, each in its own cgroup"),
    /**
     * Neighbours in other login sessions: every background copy starts in a new session (setsid), its own
     * autogroup where autogroup is on, as agents started over ssh and users' logins are when they share the root
     * cpu cgroup.
     */
    OTHER_SESSION("other-session", null, "Neighbours in other login sessions",
            "agents started over ssh and logins in the root cpu cgroup, each session its own autogroup");

    private final String id;
    private final String formerId;
    private final String title;
    private final String meaning;

    Topology(final String id, final String formerId, final String title, final String meaning) {
        this.id = id;
        this.formerId = formerId;
        this.title = title;
        this.meaning = meaning;
    }

    public String id() {
        return id;
    }

    /** The question this topology answers for a Jenkins user, e.g. "Executors of the same agent". */
    public String title() {
        return title;
    }

    /** What it stands for on a Jenkins machine, in words. */
    public String meaning() {
        return meaning;
    }

    /** Whether per-task policies (nice, batch, idle) of the background reach the victim in this topology. */
    public boolean sharesTaskGroup() {
        return this == SAME_AGENT;
    }

    /**
     * Reads an id; the ids before issue 18 (same-group, other-cgroup) are still read, so older scenario files
     * and scripts keep working. {@code machine} is gone: it meant other-session or other-cgroup depending on
     * the machine, so one report could not say which question it answered.
     */
    public static Topology parse(final String text) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        if (t.equals("machine")) {
            throw new IllegalArgumentException("topology 'machine' is no longer offered (it meant other-session or"
                    + " outside-agent depending on the machine); name one of " + ids());
        }
        return Arrays.stream(values()).filter(v -> v.id.equals(t) || t.equals(v.formerId)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown topology '" + text.strip() + "'; use " + ids()));
    }

    /** Parses a comma-separated list such as {@code same-agent,outside-agent}. */
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
}
