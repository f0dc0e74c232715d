package dev.schedpolicy.engine.bench;

import dev.schedpolicy.engine.cgroup.CgroupException;
import dev.schedpolicy.engine.cgroup.CgroupSystem;
import dev.schedpolicy.engine.cgroup.CpuCgroup;
import dev.schedpolicy.engine.container.ContainerLaunch;
import dev.schedpolicy.engine.container.ContainerReadBack;
import dev.schedpolicy.engine.policy.Policy;
import dev.schedpolicy.engine.scenario.Topology;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Puts one run's processes where its topology says: unchanged (same-agent), every background copy in a new
 * session and the victim in one more (other-session, through util-linux setsid, which execs in place), or the
 * victim and every background copy each in a fresh sibling cgroup under the benchmark's own (outside-agent). A process whose policy has a
 * cgroup part is placed by the launcher in its policy group, made under the copy's group (or under the
 * configured cgroup parent, e.g. a machine-wide idle parent); any other is moved by a shell that writes its
 * own PID to the group's cgroup.procs and then execs the workload, so it runs there from its first instruction.
 * The container topology puts every background copy in its own container ({@link ContainerCopies}).
 */
final class Placement implements AutoCloseable {
    static final Path SETSID = Path.of("/usr/bin/setsid");

    /**
     * How to start one process.
     *
     * @param builder      the command, wrapped when the process must move itself
     * @param cgroupParent where its policy group goes, if its policy has one
     * @param where        its task group in words ("" when it shares the benchmark's)
     * @param movesInto    the cgroup path the process moves itself into before exec, when it does
     */
    record Launch(ProcessBuilder builder, Optional<Path> cgroupParent, String where, Optional<String> movesInto,
            Optional<ContainerLaunch> container) {
        Launch(final ProcessBuilder builder, final Optional<Path> cgroupParent, final String where, final Optional<String> movesInto) {
            this(builder, cgroupParent, where, movesInto, Optional.empty());
        }
    }

    private final Topology topology;
    private final Supplier<CgroupSystem> cgroups;
    private final Optional<Path> cgroupParent;
    private final List<CpuCgroup> groups = new ArrayList<>();
    private final Optional<String> containerImage;
    private ContainerCopies containers;

    /**
     * @param topology     where the run's processes go
     * @param cgroups      the machine's cgroups, detected on first use
     * @param cgroupParent where policy groups go when set (e.g. the idle parent); else the starter's default
     */
    Placement(final Topology topology, final Supplier<CgroupSystem> cgroups, final Optional<Path> cgroupParent) {
        this(topology, cgroups, cgroupParent, Optional.empty());
    }

    /** @param containerImage the local image the container topology's background copies run in */
    Placement(final Topology topology, final Supplier<CgroupSystem> cgroups, final Optional<Path> cgroupParent,
            final Optional<String> containerImage) {
        this.topology = topology;
        this.cgroups = cgroups;
        this.cgroupParent = cgroupParent;
        this.containerImage = containerImage;
    }

    Topology topology() {
        return topology;
    }

    /** Whether the background runs as one process per copy, each in its own task group. */
    boolean spreadsBackground() {
        return topology != Topology.SAME_AGENT;
    }

    /**
     * The victim of other-session gets a session of its own too, as a test job started by another login or service
     * has: left in the benchmark's session it would share its task group with this JVM, whose sampling and reader
     * threads then took 6-7 points of its share beside 4 compile loops (issue 26; docs/results.md).
     */
    Launch victim(final ProcessBuilder pb, final BenchPolicy policy) {
        return switch (topology) {
            case OUTSIDE_AGENT -> inOwnGroup(pb, policy);
            case OTHER_SESSION -> inOwnSession(pb);
            default -> plain(pb);
        };
    }

    Launch backgroundCopy(final ProcessBuilder pb, final BenchPolicy policy) {
        return switch (topology) {
            case OTHER_SESSION -> inOwnSession(pb);
            case OUTSIDE_AGENT -> inOwnGroup(pb, policy);
            case CONTAINER -> inContainer(pb, policy);
            default -> plain(pb);
        };
    }

    /** Through util-linux setsid, which execs the command in place in a new session (so a new autogroup). */
    private Launch inOwnSession(final ProcessBuilder pb) {
        if (!Files.isExecutable(SETSID)) {
            throw new RunAborted(RunAborted.Kind.TOPOLOGY_UNAVAILABLE, "other-session needs " + SETSID
                    + " (util-linux) to start the victim and the background in new sessions");
        }
        List<String> cmd = new ArrayList<>();
        cmd.add(SETSID.toString());
        cmd.addAll(pb.command());
        pb.command(cmd);
        return new Launch(pb, cgroupParent, "own session", Optional.empty());
    }

    /** A background copy in its own container; its client starts without a policy (the container carries it). */
    private Launch inContainer(final ProcessBuilder pb, final BenchPolicy policy) {
        if (containerImage.isEmpty()) {
            throw new RunAborted(RunAborted.Kind.TOPOLOGY_UNAVAILABLE, "the container topology needs a local image to run the"
                    + " background in: --container-image IMAGE (one made from host files will do: tar -C DIR -c . | docker import - IMAGE)");
        }
        if (containers == null) {
            containers = new ContainerCopies(containerImage.get(), cgroupParent, cgroups.get());
        }
        ContainerLaunch launch = containers.wrap(pb, policy);
        return new Launch(pb, Optional.empty(), "own container", Optional.empty(), Optional.of(launch));
    }

    /** What the kernel holds for a container copy once its main process runs (the process its CPU time is read from). */
    ContainerReadBack.State running(final Launch launch) {
        return containers.running(launch.container().orElseThrow());
    }

    private Launch plain(final ProcessBuilder pb) {
        return new Launch(pb, cgroupParent, "", Optional.empty());
    }

    private Launch inOwnGroup(final ProcessBuilder pb, final BenchPolicy policy) {
        CpuCgroup group;
        try {
            CgroupSystem system = cgroups.get();
            group = system.createChild(system.ownCpuCgroupDir());
        } catch (CgroupException | java.io.UncheckedIOException e) {
            throw new RunAborted(RunAborted.Kind.TOPOLOGY_UNAVAILABLE, "outside-agent needs a writable cpu cgroup"
                    + " beside the benchmark's own: " + e.getMessage());
        }
        groups.add(group);
        boolean policyGroup = policy.needsCgroup();
        if (policyGroup) {
            // the launcher makes the policy group: under the copy's group, as an agent's own would be
            return new Launch(pb, Optional.of(cgroupParent.orElse(group.path())),
                    "own cgroup " + (cgroupParent.isPresent() ? "under " + cgroupParent.get() : group.cgroupPath()),
                    Optional.empty());
        }
        List<String> cmd = new ArrayList<>(List.of("/bin/sh", "-c", "echo $$ > \"$0\" && exec \"$@\"",
                group.path().resolve("cgroup.procs").toString()));
        cmd.addAll(pb.command());
        pb.command(cmd);
        return new Launch(pb, cgroupParent, "own cgroup " + group.cgroupPath(), Optional.of(group.cgroupPath()));
    }

    /**
     * Checks, once the process has talked (so it has exec'd the workload), that it sits in the group it was to
     * move itself into: the launcher's read-back saw it before the move.
     */
    void verify(final Launch launch, final long pid) {
        if (launch.movesInto().isEmpty()) {
            return;
        }
        String actual;
        try {
            actual = cgroups.get().cpuCgroupOf(pid);
        } catch (CgroupException e) {
            return; // the process is gone: its own failure is reported where it is read
        }
        if (!actual.equals(launch.movesInto().get())) {
            throw new RunAborted(RunAborted.Kind.TOPOLOGY_UNAVAILABLE, "pid " + pid + " should be in cpu cgroup "
                    + launch.movesInto().get() + " but /proc says " + actual);
        }
    }

    /** Removes the run's groups; call after its processes are gone. */
    @Override
    public void close() {
        if (containers != null) {
            containers.close();
            containers = null;
        }
        for (CpuCgroup g : groups) {
            try {
                g.killAll();
                g.close();
            } catch (CgroupException e) {
                // left for the sweeper: it is named like ours and removed once empty
            }
        }
        groups.clear();
    }
}
