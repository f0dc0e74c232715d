package dev.schedpolicy.cli;

import dev.schedpolicy.engine.cgroup.CgroupSystem;
import dev.schedpolicy.engine.container.ClientDesk;
import dev.schedpolicy.engine.container.ContainerAction;
import dev.schedpolicy.engine.container.ContainerCommand;
import dev.schedpolicy.engine.container.ContainerLaunch;
import dev.schedpolicy.engine.container.ContainerPlacement;
import dev.schedpolicy.engine.container.ContainerRuntime;
import dev.schedpolicy.engine.container.DriverQuery;
import dev.schedpolicy.engine.container.UnplacedStarts;
import dev.schedpolicy.engine.launch.LaunchConfig;
import dev.schedpolicy.engine.launch.LaunchDirs;
import dev.schedpolicy.engine.policy.Policy;
import dev.schedpolicy.engine.proc.ProcFs;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The containers a policed command's own processes start ({@code schedpolicy run --idle -- make}, whose recipes call
 * {@code docker build} and {@code docker run}) go under the policy's cgroup parts as {@code run --container} puts
 * them: the command gets docker and podman wrappers first on its PATH (see {@link ClientDesk}), each of its container
 * starts is placed, every other client line runs as given, and a line that cannot be read is refused (exit 125), since
 * the container it starts would escape the policy. Warnings are printed as the lines run; with --verify one line per
 * placed container start says what was placed.
 */
final class ClientWrappers implements AutoCloseable {
    private final ClientDesk desk;
    private final Path dir;
    private final List<ContainerLaunch> launches = new CopyOnWriteArrayList<>();
    private final CgroupSystem cgroups;

    private ClientWrappers(final Policy policy, final PolicyOptions options, final LaunchConfig config, final boolean verify,
            final RunWarnings warnings, final PrintWriter err) {
        this.dir = LaunchDirs.create(config);
        this.cgroups = CgroupSystem.detect();
        ContainerPlacement placement = new ContainerPlacement(cgroups, new DriverQuery()).withDockerBuildGroups();
        Optional<Path> parent = options.cgroupParent();
        long self = ProcessHandle.current().pid();
        ProcFs proc = ProcFs.system();
        try {
            this.desk = ClientDesk.open(dir.resolve("desk"), proc, pid -> ClientDesk.descendsFrom(proc, pid, self), request -> {
                Optional<ContainerCommand> start = ClientDesk.startIn(request.argv(), "the policy");
                if (start.isEmpty()) {
                    // a warning, with or without --verify: what the line starts runs outside the policy
                    UnplacedStarts.noteFor(request.argv(), "the policy").ifPresent(note -> {
                        err.println("schedpolicy: warning: " + note);
                        err.flush();
                    });
                    return new ClientDesk.Go(request.argv());
                }
                ContainerLaunch launch = ContainerLaunch.prepare(placement, start.get(), policy, parent, config, request.env());
                launches.add(launch);
                warnings.print(launch.plan().warnings());
                if (verify) {
                    err.println("schedpolicy: " + start.get().describe() + " run by the command: placed with " + launch.plan().shownOptions()
                            + (start.get().action() != ContainerAction.BUILD ? "" : "; " + launch.plan().buildTail(request.env())));
                }
                err.flush();
                return new ClientDesk.Go(launch.argv());
            });
        } catch (RuntimeException e) {
            LaunchDirs.remove(dir);
            throw e;
        }
    }

    /** Wrappers for {@code command} under {@code policy}, or none where there is nothing to place (the default policy). */
    static Optional<ClientWrappers> open(final Policy policy, final PolicyOptions options, final LaunchConfig config, final boolean verify,
            final RunWarnings warnings, final PrintWriter err) {
        if (policy.isDefault()) {
            return Optional.empty();
        }
        return Optional.of(new ClientWrappers(policy, options, config, verify, warnings, err));
    }

    /** Puts the wrappers first on the PATH the command will run with. */
    void prefix(final ProcessBuilder builder) {
        builder.environment().put("PATH", desk.pathBefore("run", builder.environment().get("PATH")));
    }

    @Override
    public void close() {
        desk.close();
        // a docker build's own group, which the runtime made in every hierarchy and never removes; a podman build's is gone
        launches.stream().filter(l -> l.plan().command().runtime() == ContainerRuntime.DOCKER)
                .forEach(l -> l.plan().buildGroup().ifPresent(cgroups::removeEverywhere));
        launches.forEach(ContainerLaunch::close);
        LaunchDirs.remove(dir);
    }
}
