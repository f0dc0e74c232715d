package dev.schedpolicy.engine.buildpage;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Which launches are already being policed, decided by the identity of the launch object, never by
 * anything a build can write: an environment variable can be set by {@code withEnv}, a build
 * parameter or the controller's own environment, and must not switch policing off. Several policed
 * launchers can wrap one launcher (node default inside, blocks outside); the outermost claims the
 * launch for the duration of its start, and inner ones let a claimed launch through.
 */
public final class LaunchMarks {
    /** The environment variable naming a launch's handshake: information for the build, never a decision. */
    public static final String MARKER = "SCHEDPOLICY_LAUNCH";

    private static final Set<Object> CLAIMED = Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));

    private LaunchMarks() {
    }

    /** Claims {@code launch} for the caller; false when an outer policed launcher already holds it. */
    public static boolean claim(final Object launch) {
        return CLAIMED.add(launch);
    }

    /** Ends a claim made by {@link #claim}; call it in a finally block. */
    public static void release(final Object launch) {
        CLAIMED.remove(launch);
    }

    /** Environment overrides ("K=V") with any marker the build set or inherited replaced by this launch's. */
    public static String[] withMarker(final String[] envs, final String id) {
        List<String> all = new ArrayList<>();
        for (String e : envs == null ? new String[0] : envs) {
            if (!e.startsWith(MARKER + "=")) {
                all.add(e);
            }
        }
        all.add(MARKER + "=" + id);
        return all.toArray(new String[0]);
    }

    /** The same for an environment map; the caller's map is not changed. */
    public static Map<String, String> withMarker(final Map<String, String> env, final String id) {
        Map<String, String> all = new TreeMap<>(env == null ? Map.of() : env);
        all.put(MARKER, id);
        return all;
    }
}
