package dev.schedpolicy.engine.scenario;

import java.util.Map;
import java.util.Objects;

/**
 * What runs as the victim or as the background: a built-in workload program (run as its own JVM
 * process) or the user's own shell command, or nothing.
 *
 * @param builtin   the built-in workload, or null for a command or nothing
 * @param command   a {@code /bin/sh -c} command line, or null
 * @param workers   worker threads for built-ins (victim: threads doing the fixed work)
 * @param params    further workload parameters (e.g. {@code work-share} of a periodic task)
 * @param copies    victim processes started side by side (e.g. one periodic task per core)
 * @param pinPerCopy pin victim copy i to CPU i (mod ncpu)
 * @param perLoad   background copies per load unit; 0 means "ncpu"
 */
public record WorkloadSpec(Builtin builtin, String command, int workers, Map<String, String> params, int copies,
        boolean pinPerCopy, int perLoad) {

    public static final WorkloadSpec NONE = new WorkloadSpec(null, null, 1, Map.of(), 1, false, 1);

    public WorkloadSpec {
        params = Map.copyOf(Objects.requireNonNull(params, "params"));
        if (builtin != null && command != null) {
            throw new IllegalArgumentException("a workload is either built-in or a command, not both");
        }
    }

    public static WorkloadSpec command(final String command, final int perLoad) {
        return new WorkloadSpec(null, command, 1, Map.of(), 1, false, perLoad);
    }

    public boolean isNone() {
        return builtin == null && command == null;
    }

    public boolean isCommand() {
        return command != null;
    }

    public WorkloadSpec withWorkers(final int value) {
        return new WorkloadSpec(builtin, command, value, params, copies, pinPerCopy, perLoad);
    }

    /** Copies per load unit on a machine with {@code ncpu} CPUs. */
    public int copiesPerLoad(final int ncpu) {
        return perLoad == 0 ? ncpu : perLoad;
    }

    public String describe() {
        if (isNone()) {
            return "none";
        }
        if (isCommand()) {
            return command;
        }
        StringBuilder s = new StringBuilder(builtin.id());
        if (builtin.isVictim()) {
            s.append(" workers=").append(workers);
        }
        if (copies > 1) {
            s.append(" copies=").append(copies);
        }
        if (pinPerCopy) {
            s.append(" pinned");
        }
        params.forEach((k, v) -> s.append(' ').append(k).append('=').append(v));
        return s.toString();
    }
}
