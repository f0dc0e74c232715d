package dev.schedpolicy.engine.container;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The options of a container start (or exec) that let its processes leave the group the policy placed it in, or rise
 * above what the group's weight or cpu.idle holds: with them the runtime hands the container root's powers over the
 * scheduler, so no floor of ours can hold. Each comes back as the option and what it allows, in words; the values
 * named are only the ones that matched (a capability, a host path of the cgroupfs or /proc), never the rest of the
 * line, which may carry credentials.
 * <ul>
 * <li>{@code --privileged}: every capability and a writable cgroupfs, so a process writes its PID to any group (the
 * root one included).</li>
 * <li>{@code --cap-add SYS_NICE} (or {@code ALL}): realtime classes, which cpu.idle and weights do not hold back;
 * {@code SYS_ADMIN}: mounting a writable cgroupfs.</li>
 * <li>{@code --pid=host}: the host's processes, which such a container can reach.</li>
 * <li>a bind ({@code -v}, {@code --mount}) of the cgroupfs, of /proc, or of a directory above them (/, /sys): the
 * host's groups and the scheduler's settings (/proc/sys/kernel) from inside.</li>
 * <li>{@code --security-opt systempaths=unconfined}: /proc/sys unmasked and writable.</li>
 * </ul>
 * {@code --cgroupns=host} alone is not one: without one of the above the container's cgroupfs stays read-only (and on
 * cgroup v1 Docker's default cgroup namespace is the host's anyway).
 */
public final class ContainerEscapes {
    private static final Set<String> RAISING_CAPABILITIES = Set.of("ALL", "SYS_NICE", "SYS_ADMIN");
    private static final Path CGROUPFS = Path.of("/sys/fs/cgroup");
    private static final Path PROC = Path.of("/proc");

    private ContainerEscapes() {
    }

    /** What in {@code command} lets the container leave its policy, one entry per option; empty when nothing does. */
    public static List<String> of(final ContainerCommand command) {
        List<String> out = new ArrayList<>();
        if (command.option("--privileged").filter(ContainerEscapes::isOn).isPresent()) {
            out.add("--privileged (every capability and a writable cgroupfs: a process can move itself to any group)");
        }
        for (String value : command.values("--cap-add")) {
            for (String cap : value.split(",")) {
                String name = cap.trim().toUpperCase(Locale.ROOT).replaceFirst("^CAP_", "");
                if (RAISING_CAPABILITIES.contains(name)) {
                    out.add("--cap-add " + name + " (" + (name.equals("SYS_ADMIN") ? "mounting a writable cgroupfs"
                            : "realtime classes, which cpu.idle and weights do not hold back") + ")");
                }
            }
        }
        if (command.option("--pid").filter(v -> v.equals("host")).isPresent()) {
            out.add("--pid=host (the host's processes)");
        }
        for (String value : command.values("--volume")) {
            hostPathOfVolume(value).filter(ContainerEscapes::reachesScheduler)
                    .ifPresent(p -> out.add("a bind of " + p + " (the host's cgroups or scheduler settings from inside)"));
        }
        for (String value : command.values("--mount")) {
            hostPathOfMount(value).filter(ContainerEscapes::reachesScheduler)
                    .ifPresent(p -> out.add("a bind of " + p + " (the host's cgroups or scheduler settings from inside)"));
        }
        for (String value : command.values("--security-opt")) {
            if (value.replace(':', '=').trim().equals("systempaths=unconfined")) {
                out.add("--security-opt systempaths=unconfined (a writable /proc/sys)");
            }
        }
        return out;
    }

    /** A flag given bare or as --flag=true; --privileged=false is off. */
    private static boolean isOn(final String value) {
        return value.isEmpty() || !value.equalsIgnoreCase("false");
    }

    /** {@code -v SRC:DST[:OPTS]}: SRC when it is a host path (a named volume is not). */
    private static java.util.Optional<Path> hostPathOfVolume(final String value) {
        int colon = value.indexOf(':');
        String source = colon < 0 ? value : value.substring(0, colon);
        return source.startsWith("/") && colon > 0 ? java.util.Optional.of(Path.of(source).normalize()) : java.util.Optional.empty();
    }

    /** {@code --mount type=bind,source=SRC,...} (also src=): SRC when it is a host path. */
    private static java.util.Optional<Path> hostPathOfMount(final String value) {
        for (String field : value.split(",")) {
            int eq = field.indexOf('=');
            String key = eq < 0 ? field : field.substring(0, eq).trim();
            if ((key.equals("source") || key.equals("src")) && eq > 0 && field.substring(eq + 1).startsWith("/")) {
                return java.util.Optional.of(Path.of(field.substring(eq + 1)).normalize());
            }
        }
        return java.util.Optional.empty();
    }

    /** The cgroupfs, anything in /proc, or a directory above either (/, /sys, /sys/fs). */
    static boolean reachesScheduler(final Path hostPath) {
        return CGROUPFS.startsWith(hostPath) || hostPath.startsWith(CGROUPFS) || PROC.startsWith(hostPath) || hostPath.startsWith(PROC);
    }
}
