package dev.schedpolicy.engine.container;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The variables of a container client's environment that choose its daemon and how the client reaches it. Only these
 * are kept beyond one launch (a cached answer, a started container asked about later): the rest of a build's
 * environment may hold withCredentials secrets, and DOCKER_ or CONTAINER_ in a name says nothing about that.
 */
public final class DaemonVariables {
    private static final Set<String> NAMES = Set.of("DOCKER_HOST", "DOCKER_CONTEXT", "DOCKER_CONFIG", "DOCKER_CERT_PATH",
            "DOCKER_TLS", "DOCKER_TLS_VERIFY", "DOCKER_API_VERSION", "CONTAINER_HOST", "CONTAINER_CONNECTION", "CONTAINER_SSHKEY",
            "CONTAINERS_CONF", "PATH", "HOME", "XDG_RUNTIME_DIR");

    private DaemonVariables() {
    }

    /** The choosing variables of {@code env}, sorted by name. */
    public static Map<String, String> of(final Map<String, String> env) {
        Map<String, String> kept = new TreeMap<>();
        env.forEach((name, value) -> {
            if (NAMES.contains(name)) {
                kept.put(name, value);
            }
        });
        return kept;
    }
}
