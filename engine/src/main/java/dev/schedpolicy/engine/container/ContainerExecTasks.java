package dev.schedpolicy.engine.container;

import dev.schedpolicy.engine.cgroup.CgroupHierarchy;
import dev.schedpolicy.engine.cgroup.CgroupSystem;
import dev.schedpolicy.engine.cgroup.CgroupVersion;
import dev.schedpolicy.engine.measure.TaskSource;
import dev.schedpolicy.engine.proc.ProcFs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The processes of one {@code docker|podman exec} into a container of ours, for its measurement: the runtime starts
 * them (dockerd, containerd, the shim, runc), so no process of the launch is their ancestor, and a step's background
 * processes (a durable task's script) are re-parented to the container's first process once the exec'd one ends.
 *
 * <p>Two facts find them. Which container: the kernel's, the processes in the container's own cpu cgroup, which the
 * runtime made and a process in the container cannot leave (it has no cgroupfs to write). Which exec: the marker
 * {@link #MARKER}{@code =token} the agent put on the exec's command line, a fresh random token per launch, which every
 * process the exec starts inherits in the environment it was started with (/proc/PID/environ). A process of the
 * container that drops or changes the variable is not counted; one that copies another exec's token is counted to
 * that exec: both are within one container, the business of whoever runs it. A process outside the container is
 * never counted, whatever its environment says.
 */
public final class ContainerExecTasks implements TaskSource {
    /** How the source of an exec's figures begins: {@code MeasureRecord#inContainer} reads it back from stored records. */
    public static final String SOURCE_PREFIX = "container ";
    /** The variable an exec carries its token in. */
    public static final String MARKER = "SCHEDPOLICY_EXEC";
    /** How long the exec's first process may take to appear (dockerd, containerd and runc start it) before the step is over. */
    static final Duration APPEAR_BOUND = Duration.ofSeconds(10);
    /** At most this much of a process's environment is read (docker-workflow passes the build's whole environment). */
    static final int ENVIRON_BOUND = 1 << 20;
    /** Processes of the container whose membership is remembered; beyond, new ones are not looked at (a note says so). */
    static final int MAX_TRACKED = 4096;
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final long RELIST_NANOS = 500_000_000L;

    private final CgroupSystem system;
    private final ProcFs proc;
    private final String containerId;
    private final String cpuCgroup;
    private final String entry;
    private final long appearBoundNanos;
    private final long since = System.nanoTime();
    private final Optional<Path> containerCpuFile;
    /** Why the container's whole CPU is not read, for the record's note; "" when it is. */
    private String containerCpuWhyNot = "";
    private final OptionalLong containerCpuAtStart;
    /** The container's whole CPU at the last sample: the group goes with the container, which may stop before the end. */
    private OptionalLong containerCpuLast = OptionalLong.empty();
    /** Per process of the container looked at: whether it is this exec's. Entries go once the process leaves the group. */
    private final Map<Long, Boolean> member = new HashMap<>();
    private boolean found;
    private boolean membersNow;
    /** When the group was last listed: without schedstat nothing samples the tasks, and {@link #ended} lists them itself. */
    private long listedAt = Long.MIN_VALUE;
    private final Set<Long> unreadable = new HashSet<>();
    private final Set<Long> tooLong = new HashSet<>();
    private long untracked;

    /**
     * @param containerId the container's full id
     * @param cpuCgroup   its cpu cgroup, as /proc/PID/cgroup of its main process shows it
     * @param mainPid     its main process, to find its cpuacct group on a v1 host
     * @param token       this exec's token ({@link #newToken()})
     */
    ContainerExecTasks(final CgroupSystem system, final ProcFs proc, final String containerId, final String cpuCgroup,
            final long mainPid, final String token, final Duration appearBound) {
        this.system = system;
        this.proc = proc;
        this.containerId = containerId;
        this.cpuCgroup = cpuCgroup;
        this.entry = MARKER + "=" + token;
        this.appearBoundNanos = appearBound.toNanos();
        this.containerCpuFile = cpuUsageFile(mainPid);
        this.containerCpuAtStart = containerCpuFile.map(ContainerExecTasks::readUsage).orElse(OptionalLong.empty());
    }

    /** The processes of the exec carrying {@code token} into the container {@code state} read back. */
    public static ContainerExecTasks of(final CgroupSystem system, final ProcFs proc, final ContainerReadBack.State state,
            final String token) {
        return new ContainerExecTasks(system, proc, state.id(), state.cpuCgroup(), state.pid(), token, APPEAR_BOUND);
    }

    /** A fresh token: 128 random bits, so no other build can name this exec's processes. */
    public static String newToken() {
        byte[] b = new byte[16];
        RANDOM.nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    /** The options to put before the container on the exec's command line. */
    public static List<String> options(final String token) {
        return List.of("--env", MARKER + "=" + token);
    }

    /**
     * Whether the agent can read the environment of the container's processes, tried on its main process; empty when
     * it can, else why not.
     */
    public static Optional<String> unreadable(final ProcFs proc, final long mainPid) {
        if (proc.environHas(mainPid, MARKER + "=", 1) == ProcFs.EnvironEntry.UNREADABLE) {
            return Optional.of("the agent may not read the environment of the container's processes (/proc/" + mainPid
                    + "/environ: another user's, or more privileged), which tells this exec's apart: run the agent as the"
                    + " container's user, or as root");
        }
        return Optional.empty();
    }

    @Override
    public synchronized List<Long> threads() {
        List<Long> pids = system.pidsIn(cpuCgroup);
        Set<Long> now = new HashSet<>(pids);
        member.keySet().retainAll(now);
        unreadable.retainAll(now);
        tooLong.retainAll(now);
        List<Long> tids = new ArrayList<>();
        for (long pid : pids) {
            Boolean mine = member.get(pid);
            if (mine == null) {
                if (member.size() >= MAX_TRACKED) {
                    untracked++;
                    continue;
                }
                ProcFs.EnvironEntry e = proc.environHas(pid, entry, ENVIRON_BOUND);
                mine = e == ProcFs.EnvironEntry.PRESENT;
                if (!mine && proc.stat(pid).map(s -> ContainerReadBack.isRuntimeInit(s.comm())).orElse(true)) {
                    // runc's init joins the group before it execs the exec's command, and holds runc's environment
                    // until then: asked again at the next sample
                    continue;
                }
                if (e == ProcFs.EnvironEntry.UNREADABLE) {
                    unreadable.add(pid);
                } else if (e == ProcFs.EnvironEntry.TOO_LONG) {
                    tooLong.add(pid);
                }
                member.put(pid, mine);
            }
            if (mine) {
                tids.addAll(proc.threads(pid));
            }
        }
        membersNow = !tids.isEmpty();
        found |= membersNow;
        listedAt = System.nanoTime();
        OptionalLong cpu = containerCpuFile.map(ContainerExecTasks::readUsage).orElse(OptionalLong.empty());
        if (cpu.isPresent()) {
            containerCpuLast = cpu;
        }
        return tids;
    }

    @Override
    public synchronized boolean ended() {
        if (listedAt == Long.MIN_VALUE || System.nanoTime() - listedAt > RELIST_NANOS) {
            threads();
        }
        return found ? !membersNow : System.nanoTime() - since > appearBoundNanos;
    }

    /** An exec's processes share their container's group with others: no counter holds theirs alone. */
    @Override
    public OptionalLong exactCpuNanos() {
        return OptionalLong.empty();
    }

    @Override
    public String words() {
        return SOURCE_PREFIX + containerId.substring(0, Math.min(12, containerId.length())) + ": the processes of its cpu cgroup "
                + cpuCgroup + " started by this exec (its marker in /proc/PID/environ)";
    }

    @Override
    public synchronized List<String> notes() {
        List<String> out = new ArrayList<>();
        if (!found) {
            out.add(String.format(Locale.ROOT, "no process of this exec was seen in the container's group (it ended within a"
                    + " sample, or did not start within %d s): nothing measured", appearBoundNanos / 1_000_000_000L));
        }
        if (!unreadable.isEmpty()) {
            out.add(unreadable.size() + " process(es) of the container whose environment the agent may not read were not counted");
        }
        if (!tooLong.isEmpty()) {
            out.add(tooLong.size() + " process(es) of the container with an environment over " + (ENVIRON_BOUND >> 10)
                    + " KiB were not looked at beyond it, and not counted unless the marker was in it");
        }
        if (untracked > 0) {
            out.add("the container ran more than " + MAX_TRACKED + " processes at once: the ones beyond were not looked at");
        }
        OptionalLong end = containerCpuFile.map(ContainerExecTasks::readUsage).orElse(OptionalLong.empty());
        if (end.isEmpty()) {
            end = containerCpuLast;
        }
        if (containerCpuAtStart.isPresent() && end.isPresent()) {
            out.add(String.format(Locale.ROOT, "the container's group used %.2f s of CPU during the step, all its processes"
                    + " together (this exec's, the container's own and other execs')",
                    Math.max(0, end.getAsLong() - containerCpuAtStart.getAsLong()) / 1e9));
        } else {
            out.add("the container's whole CPU was not read: " + (containerCpuWhyNot.isEmpty()
                    ? "its group's counter " + containerCpuFile.map(Path::toString).orElse("") + " could not be read" : containerCpuWhyNot));
        }
        return out;
    }

    /**
     * The file with the container's whole CPU: cpu.stat's usage_usec in its v2 group, cpuacct.usage in its v1 cpuacct
     * group; empty where neither is readable.
     */
    private Optional<Path> cpuUsageFile(final long mainPid) {
        try {
            Optional<CgroupHierarchy> cpu = system.cpuHierarchy();
            if (cpu.isPresent() && cpu.get().version() == CgroupVersion.V2) {
                return readable(system.cpuDirOf(cpuCgroup).resolve("cpu.stat"));
            }
            for (CgroupHierarchy h : system.hierarchies()) {
                if (h.version() == CgroupVersion.V1 && h.controllers().contains("cpuacct")) {
                    for (String line : proc.cgroupLines(mainPid, OptionalLong.empty())) {
                        String[] f = line.split(":", 3);
                        if (f.length == 3 && List.of(f[1].split(",")).contains("cpuacct")) {
                            return readable(h.dirOf(f[2].trim()).resolve("cpuacct.usage"));
                        }
                    }
                    containerCpuWhyNot = "/proc/" + mainPid + "/cgroup names no cpuacct group";
                    return Optional.empty();
                }
            }
            containerCpuWhyNot = "no cpuacct hierarchy and no cgroup v2 cpu controller";
        } catch (RuntimeException e) {
            containerCpuWhyNot = "the container's group could not be found (" + e.getMessage() + ")";
        }
        return Optional.empty();
    }

    private Optional<Path> readable(final Path file) {
        if (Files.isReadable(file)) {
            return Optional.of(file);
        }
        containerCpuWhyNot = file + " cannot be read";
        return Optional.empty();
    }

    private static OptionalLong readUsage(final Path file) {
        try {
            String text = Files.readString(file);
            if (file.getFileName().toString().equals("cpuacct.usage")) {
                return OptionalLong.of(Long.parseLong(text.trim()));
            }
            for (String line : text.split("\n")) {
                if (line.startsWith("usage_usec ")) {
                    return OptionalLong.of(Long.parseLong(line.substring(11).trim()) * 1000);
                }
            }
        } catch (IOException | NumberFormatException e) {
            // the group is gone (the container ended)
        }
        return OptionalLong.empty();
    }
}
