package dev.schedpolicy.engine.buildpage;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The launches of a build that were not measured, counted by the agent's reason, as its page says them: a build whose
 * work ran in containers must not look measured by its checkout alone ("3 launches in containers not measured: ...").
 */
public final class UnmeasuredLaunches {
    /**
     * What agents answered for every container launch before execs were measured through the container's cgroup; kept
     * for the builds that stored it.
     */
    public static final String IN_CONTAINER = "a container launch is not measured: its processes are the container"
            + " runtime's children";

    /** The agent's answer for a container start: the execs into the container are measured, the start is not. */
    public static final String CONTAINER_START = "a container start is not measured: its client is not the work, and the"
            + " steps that exec into the container (docker-workflow's inside) are measured apart";

    /** Distinct reasons a build keeps; a build's file must not grow with the reasons agents give (each is one line). */
    public static final int MAX_REASONS = 10;
    static final String OTHER_REASONS = "other reasons";

    private UnmeasuredLaunches() {
    }

    /** Counts one more launch not measured for {@code reason} into {@code counts}, keeping at most {@link #MAX_REASONS}. */
    public static void count(final Map<String, Integer> counts, final String reason) {
        String key = counts.containsKey(reason) || counts.size() < MAX_REASONS - 1 ? reason : OTHER_REASONS;
        counts.merge(key, 1, Integer::sum);
    }

    /** Adds {@code more} to {@code counts} as {@link #count} would one by one. */
    public static Map<String, Integer> plus(final Map<String, Integer> counts, final Map<String, Integer> more) {
        Map<String, Integer> out = new LinkedHashMap<>(counts);
        more.forEach((reason, n) -> {
            for (int i = 0; i < n; i++) {
                count(out, reason);
            }
        });
        return out;
    }

    /** One line per reason, e.g. "1 container start not measured (docker run, create): ...". */
    public static List<String> lines(final Map<String, Integer> counts) {
        List<String> out = new ArrayList<>();
        counts.forEach((reason, n) -> {
            String launches = n == 1 ? "1 launch" : String.format(Locale.ROOT, "%d launches", n);
            if (IN_CONTAINER.equals(reason)) {
                out.add(launches + " in containers not measured: their processes are the container runtime's children"
                        + " (docker exec, docker run)");
            } else if (CONTAINER_START.equals(reason)) {
                out.add((n == 1 ? "1 container start" : String.format(Locale.ROOT, "%d container starts", n)) + " not measured"
                        + " (docker run, create): the client is not the work; the steps that exec into the container are"
                        + " measured apart");
            } else {
                out.add(launches + " not measured: " + reason);
            }
        });
        return out;
    }
}
