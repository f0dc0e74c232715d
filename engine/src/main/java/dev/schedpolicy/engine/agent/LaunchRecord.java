package dev.schedpolicy.engine.agent;

import dev.schedpolicy.engine.launch.AppliedPolicy;
import dev.schedpolicy.engine.launch.PolicedLaunch;

import java.io.Serial;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/** One launch of a block: what was asked and what the kernel reported for the process afterwards. */
public final class LaunchRecord implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;

    private final String id;
    private final String policy;
    private final long pid;
    private final String readFrom;
    private final String schedClass;
    private final int nice;
    private final String io;
    private final String cpuCgroup;
    private final String cpus;
    private final ArrayList<String> mismatches;
    private final ArrayList<String> warnings;
    /** The container a run/create made or an exec joined; null for a plain launch. */
    private final String container;
    /**
     * Parts of the policy that were not applied, or that the launch's own options keep from holding, each in words; null in
     * records from before it was kept (read as none).
     */
    private final ArrayList<String> notHeld;

    @SuppressWarnings("checkstyle:ParameterNumber")
    public LaunchRecord(final String id, final String policy, final long pid, final String readFrom, final String schedClass,
            final int nice, final String io, final String cpuCgroup, final String cpus, final List<String> mismatches,
            final List<String> warnings) {
        this(id, policy, pid, readFrom, schedClass, nice, io, cpuCgroup, cpus, mismatches, warnings, null);
    }

    /**
     * A launch that started or joined a container: {@code pid} is the container's main process (0 when none runs yet),
     * {@code readFrom} says what the container's group holds, in words.
     */
    @SuppressWarnings("checkstyle:ParameterNumber")
    public LaunchRecord(final String id, final String policy, final long pid, final String readFrom, final String schedClass,
            final int nice, final String io, final String cpuCgroup, final String cpus, final List<String> mismatches,
            final List<String> warnings, final String container) {
        this(id, policy, pid, readFrom, schedClass, nice, io, cpuCgroup, cpus, mismatches, warnings, container, List.of());
    }

    /**
     * A container launch of which {@code notHeld} was not applied or cannot hold (a per-task part nothing stands in for,
     * an option that lets the container leave its group): it is never called verified.
     */
    @SuppressWarnings("checkstyle:ParameterNumber")
    public LaunchRecord(final String id, final String policy, final long pid, final String readFrom, final String schedClass,
            final int nice, final String io, final String cpuCgroup, final String cpus, final List<String> mismatches,
            final List<String> warnings, final String container, final List<String> notHeld) {
        this.id = id;
        this.policy = policy;
        this.pid = pid;
        this.readFrom = readFrom;
        this.schedClass = schedClass;
        this.nice = nice;
        this.io = io;
        this.cpuCgroup = cpuCgroup;
        this.cpus = cpus;
        this.mismatches = new ArrayList<>(mismatches);
        this.warnings = new ArrayList<>(warnings);
        this.container = container;
        this.notHeld = new ArrayList<>(notHeld);
    }

    static LaunchRecord of(final String id, final String policy, final PolicedLaunch launch) {
        return of(id, policy, launch, List.of());
    }

    /** With {@code notes}: warnings of the engine's own about the launch, before the launch's. */
    static LaunchRecord of(final String id, final String policy, final PolicedLaunch launch, final List<String> notes) {
        AppliedPolicy a = launch.applied();
        List<String> warnings = new ArrayList<>(notes);
        warnings.addAll(launch.warnings());
        return new LaunchRecord(id, policy, a.pid(), a.readFrom(), a.schedClass(), a.nice(), a.io(), a.cpuCgroup(),
                a.cpus(), a.mismatches(), warnings);
    }

    public String id() {
        return id;
    }

    /** The compact policy the launch was policed with (all layers merged). */
    public String policy() {
        return policy;
    }

    public long pid() {
        return pid;
    }

    public String readFrom() {
        return readFrom;
    }

    public String schedClass() {
        return schedClass;
    }

    public int nice() {
        return nice;
    }

    public String io() {
        return io;
    }

    public String cpuCgroup() {
        return cpuCgroup;
    }

    public String cpus() {
        return cpus;
    }

    public List<String> mismatches() {
        return List.copyOf(mismatches);
    }

    public List<String> warnings() {
        return List.copyOf(warnings);
    }

    /** The container's id when the launch started or joined one. */
    public java.util.Optional<String> container() {
        return java.util.Optional.ofNullable(container);
    }

    /** What of the policy was not applied or cannot hold, in words; empty when all of it was applied. */
    public List<String> notHeld() {
        return notHeld == null ? List.of() : List.copyOf(notHeld);
    }

    /** Whether every part of the policy was applied and the kernel reported every requested value. */
    public boolean verified() {
        return mismatches.isEmpty() && notHeld().isEmpty();
    }

    /** One line for the console: "pid 4242 verified: class idle, nice 0, io idle, cpu cgroup /, cpus 0-1". */
    public String describe() {
        if (container != null) {
            String checked = mismatches.isEmpty() ? "verified" : "NOT verified (" + String.join("; ", mismatches) + ")";
            // what was not applied comes first, and "verified" is said only of the rest
            String state = notHeld().isEmpty() ? " " + checked
                    : " NOT as asked (" + String.join("; ", notHeld()) + "); the rest " + checked;
            return "container " + container.substring(0, Math.min(12, container.length())) + state + ": " + readFrom
                    + (pid > 0 ? " (main pid " + pid + ")" : "");
        }
        return "pid " + pid + (verified() ? " verified" : " NOT verified (" + String.join("; ", mismatches) + ")")
                + ": class " + schedClass + ", nice " + nice + ", io " + io + ", cpu cgroup " + cpuCgroup + ", cpus " + cpus;
    }

    @Override
    public String toString() {
        return describe();
    }
}
