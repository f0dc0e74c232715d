package dev.schedpolicy.engine.bench;

import dev.schedpolicy.engine.cgroup.CgroupSystem;
import dev.schedpolicy.engine.container.ContainerCommand;
import dev.schedpolicy.engine.container.ContainerLaunch;
import dev.schedpolicy.engine.container.ContainerPlacement;
import dev.schedpolicy.engine.container.ContainerReadBack;
import dev.schedpolicy.engine.container.ContainerRefusal;
import dev.schedpolicy.engine.container.PerTaskParts;
import dev.schedpolicy.engine.container.DriverQuery;
import dev.schedpolicy.engine.launch.LaunchConfig;
import dev.schedpolicy.engine.policy.Policy;
import dev.schedpolicy.engine.proc.ProcFs;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The container topology's background copies: each copy's command runs in its own container of a local image, placed
 * by the same {@link ContainerPlacement} as a policed Jenkins launch (so a copy's policy is what a build container
 * would get, and per-task policies are unavailable, as they are for containers). The host's JDK, system libraries
 * and the benchmark's classes are mounted read-only, so the built-in Java workloads run in any image; a command
 * background needs its commands in the image. The client ({@code docker run -i}) carries the workload's protocol on
 * its stdin and stdout; the container's own main process is what its CPU time is read from.
 */
final class ContainerCopies implements AutoCloseable {
    static final String LABEL = "schedpolicy.bench=" + ProcessHandle.current().pid();
    private static final Duration START_BOUND = Duration.ofSeconds(60);
    private static final List<String> SYSTEM_DIRS = List.of("/usr", "/lib", "/lib64", "/etc/alternatives");

    private final String image;
    private final Optional<Path> cgroupParent;
    private final ContainerPlacement placement;
    private final ContainerReadBack readBack;
    private final List<ContainerLaunch> launches = new ArrayList<>();

    ContainerCopies(final String image, final Optional<Path> cgroupParent, final CgroupSystem system) {
        this.image = image;
        this.cgroupParent = cgroupParent;
        this.placement = new ContainerPlacement(system, new DriverQuery());
        this.readBack = new ContainerReadBack(system, ProcFs.system());
    }

    /** {@code pb} rewritten to start its command in a container placed under {@code policy}. */
    ContainerLaunch wrap(final ProcessBuilder pb, final BenchPolicy policy) {
        List<String> argv = new ArrayList<>(List.of("docker", "run", "--rm", "-i", "--network", "none", "--label", LABEL));
        for (String dir : mounts(pb.command())) {
            argv.addAll(List.of("-v", dir + ":" + dir + ":ro"));
        }
        argv.add(image);
        argv.addAll(pb.command());
        ContainerCommand command = ((ContainerCommand.Container) ContainerCommand.parse(argv)).command();
        Policy p = policy.isDefault() ? Policy.DEFAULT : Policy.parse(policy.compact());
        List<String> perTask = PerTaskParts.of(p);
        if (!perTask.isEmpty()) {
            // the benchmark measures a policy as written: a launch would run it with its cgroup equivalent, which is
            // another row (cpu-idle, weightN), so the per-task row is skipped here rather than measured twice
            throw new RunAborted(RunAborted.Kind.POLICY_UNAVAILABLE_IN_TOPOLOGY, "per-task parts cannot reach a container's"
                    + " processes: " + String.join("; ", perTask));
        }
        try {
            // the configured parent is where cpu-idle groups go (the idle parent); other copies stay where Docker puts them
            ContainerLaunch launch = ContainerLaunch.prepare(placement, command, p, p.cpuIdle() ? cgroupParent : Optional.empty(),
                    LaunchConfig.defaults(), System.getenv());
            launches.add(launch);
            pb.command(launch.argv());
            return launch;
        } catch (ContainerRefusal e) {
            throw new RunAborted(RunAborted.Kind.POLICY_UNAVAILABLE_IN_TOPOLOGY, e.getMessage());
        } catch (RuntimeException e) {
            throw new RunAborted(RunAborted.Kind.TOPOLOGY_UNAVAILABLE, "the container topology cannot start a copy: " + e.getMessage());
        }
    }

    /** The container's main process once it runs, and what the kernel holds for it. */
    ContainerReadBack.State running(final ContainerLaunch launch) {
        return launch.awaitRunning(readBack, START_BOUND).orElseThrow(() -> new RunAborted(RunAborted.Kind.TOPOLOGY_UNAVAILABLE,
                "no container of the background started within " + START_BOUND.toSeconds() + " s (" + String.join(" ",
                        launch.argv().subList(0, Math.min(launch.argv().size(), 12))) + " ...): is the image " + image + " there?"));
    }

    /** Host directories the workload needs inside: the system libraries, the JDK and every class path entry. */
    private static Set<String> mounts(final List<String> command) {
        Set<String> dirs = new LinkedHashSet<>();
        for (String d : SYSTEM_DIRS) {
            if (Files.isDirectory(Path.of(d))) {
                dirs.add(d);
            }
        }
        Path program = Path.of(command.get(0));
        if (program.isAbsolute()) {
            try {
                Path home = program.toRealPath().getParent().getParent();
                if (!home.startsWith("/usr")) {
                    dirs.add(home.toString());
                }
            } catch (IOException e) {
                // not a file: a command background's shell, which the image has
            }
        }
        int cp = command.indexOf("-cp");
        if (cp >= 0 && cp + 1 < command.size()) {
            for (String entry : command.get(cp + 1).split(File.pathSeparator)) {
                Path p = Path.of(entry).toAbsolutePath();
                dirs.add((Files.isDirectory(p) ? p : p.getParent()).toString());
            }
        }
        return dirs;
    }

    /** Removes every container of the run (their clients were killed, which leaves a container running) and our files. */
    @Override
    public void close() {
        for (ContainerLaunch launch : launches) {
            launch.id().ifPresent(id -> {
                try {
                    Process rm = new ProcessBuilder("docker", "rm", "-f", id).redirectErrorStream(true)
                            .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
                    rm.waitFor(30, TimeUnit.SECONDS);
                } catch (IOException e) {
                    // the label lets a person find it: docker ps --filter label=schedpolicy.bench
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            launch.close();
        }
        launches.clear();
    }
}
