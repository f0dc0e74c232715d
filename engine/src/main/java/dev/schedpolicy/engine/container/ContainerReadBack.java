package dev.schedpolicy.engine.container;

import dev.schedpolicy.engine.cgroup.CgroupException;
import dev.schedpolicy.engine.cgroup.CgroupSystem;
import dev.schedpolicy.engine.cgroup.CpuLimits;
import dev.schedpolicy.engine.policy.Policy;
import dev.schedpolicy.engine.proc.ProcFs;
import dev.schedpolicy.engine.proc.TaskStat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * Finds a container's processes by its id in their cpu cgroup path (every runtime and driver names the container's
 * group after the id: {@code /P/ID}, {@code docker-ID.scope}, {@code libpod-ID}) and reads back what the kernel holds
 * for the container: its main process, the group, the group's quota and weight, the nearest idle group above it,
 * and the CPUs it may run on.
 */
public final class ContainerReadBack {
    private final CgroupSystem system;
    private final ProcFs proc;

    public ContainerReadBack(final CgroupSystem system, final ProcFs proc) {
        this.system = system;
        this.proc = proc;
    }

    /**
     * What the kernel holds for one container.
     *
     * @param id        the full container id
     * @param pid       its main process: of the processes whose parent is outside the container (the runtime's shim
     *                  starts the main process and every exec'd one), the lowest pid, normally the first started
     * @param cpuCgroup the main process's cpu cgroup, as /proc/PID/cgroup shows it
     * @param limits    quota and weight of that group (the weight is absent when the group itself is idle)
     * @param idleGroup the nearest group at or above it with cpu.idle 1, as a cgroup path
     * @param cpus      Cpus_allowed_list of the main process
     * @param pids      every process of the container, exec'd ones included
     */
    public record State(String id, long pid, String cpuCgroup, CpuLimits limits, Optional<String> idleGroup, String cpus, List<Long> pids) {
        public State {
            pids = List.copyOf(pids);
        }

        /** "cpu cgroup /schedpolicy.idle/0123..., idle through /schedpolicy.idle, quota 50%, weight 50, cpus 0". */
        public String describe() {
            return "cpu cgroup " + cpuCgroup + ", " + idleGroup.map(g -> "idle through " + g).orElse("not idle")
                    + ", quota " + (limits.quotaPercent().isPresent() ? limits.quotaPercent().getAsInt() + "%" : "none")
                    + ", weight " + (limits.weight().isPresent() ? Integer.toString(limits.weight().getAsInt()) : "idle")
                    + ", cpus " + cpus;
        }
    }

    /** The container's state now; empty when none of its processes runs (not started yet, or gone). */
    public Optional<State> find(final String id) {
        return read(id, path -> path.contains(id));
    }

    /**
     * The state of what runs in the cpu group {@code cgroupPath} itself, named {@code name} (a podman build's RUN step,
     * which buildah runs in the group it was given); empty when nothing runs there (not yet, or no longer).
     */
    public Optional<State> findInGroup(final String cgroupPath, final String name) {
        return read(name, cgroupPath::equals);
    }

    /**
     * The state of a container whose group lies right under {@code cgroupPath} (a docker build's RUN step, in the group
     * the classic builder makes for it under the build's own); empty when none runs there now.
     */
    public Optional<State> findUnder(final String cgroupPath) {
        String prefix = cgroupPath + "/";
        try (DirectoryStream<Path> pids = Files.newDirectoryStream(proc.root(), p -> p.getFileName().toString().matches("\\d+"))) {
            for (Path p : pids) {
                Optional<String> path = cgroupOf(Long.parseLong(p.getFileName().toString())).filter(g -> g.startsWith(prefix));
                if (path.isPresent()) {
                    String id = path.get().substring(prefix.length()).split("/")[0];
                    Optional<State> state = read(id, g -> g.equals(prefix + id) || g.startsWith(prefix + id + "/"));
                    if (state.isPresent()) {
                        return state;
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + proc.root(), e);
        }
        return Optional.empty();
    }

    private Optional<State> read(final String id, final Predicate<String> inside) {
        Map<Long, String> members = new TreeMap<>();
        try (DirectoryStream<Path> pids = Files.newDirectoryStream(proc.root(), p -> p.getFileName().toString().matches("\\d+"))) {
            for (Path p : pids) {
                long pid = Long.parseLong(p.getFileName().toString());
                cgroupOf(pid).filter(inside).ifPresent(path -> members.put(pid, path));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + proc.root(), e);
        }
        Optional<Long> main = members.keySet().stream()
                .filter(pid -> proc.stat(pid).map(TaskStat::ppid).map(pp -> !members.containsKey((long) pp)).orElse(false))
                .findFirst();
        if (main.isPresent() && isRuntime(main.get())) {
            // the runtime's init joins the group before the runtime writes its limits: read them once the container's own
            // first process runs (seen: weight 100 read where 1 was written a moment later)
            return Optional.empty();
        }
        if (main.isEmpty()) {
            return Optional.empty();
        }
        long pid = main.get();
        String path = members.get(pid);
        try {
            Path dir = system.cpuDirOf(path);
            CpuLimits limits = system.limitsOf(dir);
            Optional<String> idle = system.idleAncestor(dir).map(system::cpuPathOf);
            Optional<String> allowed = proc.cpusAllowedList(pid, OptionalLong.empty());
            if (allowed.isEmpty()) {
                return Optional.empty(); // it ended while we read: whatever its group held is not the container's state
            }
            String cpus = allowed.get();
            return Optional.of(new State(id, pid, path, limits, idle, cpus, new ArrayList<>(members.keySet())));
        } catch (CgroupException | UncheckedIOException e) {
            return Optional.empty(); // the container stopped while we read it
        }
    }

    /**
     * Whether {@code pid} is still the runtime that will exec the container's command: runc's init re-executes runc
     * ("exe" until it names itself "runc:[2:INIT]", its executable runc or a memfd copy of it), crun's likewise.
     */
    private boolean isRuntime(final long pid) {
        Optional<TaskStat> stat = proc.stat(pid);
        if (stat.isEmpty() || isRuntimeInit(stat.get().comm())) {
            return true; // gone already (runc's parent and child end at once) or still the runtime: read again later
        }
        try {
            String exe = Files.readSymbolicLink(proc.root().resolve(Long.toString(pid)).resolve("exe")).toString();
            return exe.contains("runc") || exe.contains("crun");
        } catch (IOException | UnsupportedOperationException e) {
            return false; // gone, or not ours to read: its name decided
        }
    }

    /** runc's init ("exe", "runc:[1:CHILD]", "runc:[2:INIT]") and crun's, before they exec the container's command. */
    static boolean isRuntimeInit(final String comm) {
        return comm.startsWith("runc:") || comm.equals("runc") || comm.equals("exe") || comm.startsWith("crun");
    }

    private Optional<String> cgroupOf(final long pid) {
        try {
            return Optional.of(system.cpuCgroupOf(pid));
        } catch (CgroupException | UncheckedIOException e) {
            return Optional.empty(); // exited while we looked
        }
    }

    /** What {@code policy} asked of the container that {@code state} does not show, in words; empty when all of it holds. */
    public static List<String> mismatches(final State state, final Policy policy) {
        List<String> out = new ArrayList<>();
        if (policy.cpuIdle() && state.idleGroup().isEmpty()) {
            out.add("cpu-idle asked, but no group at or above " + state.cpuCgroup() + " has cpu.idle 1");
        }
        policy.cpuQuotaPercent().ifPresent(q -> {
            if (state.limits().quotaPercent().isEmpty() || state.limits().quotaPercent().getAsInt() != q) {
                out.add("quota " + q + "% asked, the container's group has " + (state.limits().quotaPercent().isPresent()
                        ? state.limits().quotaPercent().getAsInt() + "%" : "none"));
            }
        });
        policy.cpuWeight().ifPresent(w -> {
            if (state.limits().weight().isEmpty() || state.limits().weight().getAsInt() != w) {
                out.add("weight " + w + " asked, the container's group has " + (state.limits().weight().isPresent()
                        ? state.limits().weight().getAsInt() : "idle") + " (runtimes convert --cpu-shares to cgroup v2 weights"
                        + " in their own way)");
            }
        });
        policy.cpus().ifPresent(c -> {
            if (!c.toString().equals(state.cpus())) {
                out.add("cpus " + c + " asked, the container's main process may run on " + state.cpus());
            }
        });
        return out;
    }
}
