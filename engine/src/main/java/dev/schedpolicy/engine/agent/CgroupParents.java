package dev.schedpolicy.engine.agent;

import java.nio.file.Path;
import java.util.Optional;

/**
 * The machine-wide parent an administrator chose for the cgroups of policed launches (e.g. an idle
 * parent made by {@code schedpolicy setup}: a cpu.idle group under the root is idle against every
 * other service, while one under the agent's own cgroup is idle only against its siblings). Checked
 * here for form; whether it exists and takes children is checked on each agent by the probe when a
 * block starts, because the directory lives on the agent.
 */
public final class CgroupParents {
    private CgroupParents() {
    }

    /**
     * @param text a path as typed into a form or JCasC; blank for none (the agent's own cpu cgroup)
     * @throws IllegalArgumentException saying what is allowed when the path is not absolute or climbs with {@code ..}
     */
    public static Optional<Path> parse(final String text) {
        if (text == null || text.isBlank()) {
            return Optional.empty();
        }
        String t = text.strip();
        Path p = Path.of(t);
        if (!p.isAbsolute() || t.contains("/../") || t.endsWith("/..")) {
            throw new IllegalArgumentException("the cgroup parent must be an absolute directory in the cpu cgroup hierarchy,"
                    + " e.g. /sys/fs/cgroup/cpu/schedpolicy (cgroup v1) or /sys/fs/cgroup/schedpolicy.slice (v2); not '" + t + "'");
        }
        return Optional.of(p.normalize());
    }
}
