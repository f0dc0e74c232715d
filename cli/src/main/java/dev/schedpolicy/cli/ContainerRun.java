package dev.schedpolicy.cli;

import dev.schedpolicy.engine.cgroup.CgroupSystem;
import dev.schedpolicy.engine.container.ContainerAction;
import dev.schedpolicy.engine.container.ContainerCommand;
import dev.schedpolicy.engine.container.ContainerLaunch;
import dev.schedpolicy.engine.container.ContainerPlacement;
import dev.schedpolicy.engine.container.ContainerReadBack;
import dev.schedpolicy.engine.container.DriverQuery;
import dev.schedpolicy.engine.container.PerTaskParts;
import dev.schedpolicy.engine.launch.LaunchConfig;
import dev.schedpolicy.engine.policy.Policy;

import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * {@code schedpolicy run --container [policy] -- docker|podman run|create|build ...}: the container (a build's RUN
 * step containers, where its builder honours the options) goes under the policy's cgroup parts by the runtime's own options (see {@link ContainerPlacement}); the client itself runs as an ordinary
 * child, because it is not the work. Only on request: someone wrapping the docker client for other reasons (a
 * lowered {@code docker build}, a niced {@code docker pull}) gets exactly what {@code run} always did, and a warning
 * when the policy cannot reach a container that the line starts.
 */
final class ContainerRun {
    private static final Duration VERIFY_BOUND = Duration.ofSeconds(10);

    private ContainerRun() {
    }

    /** Whether {@code command} starts or joins a container (its program is a docker or podman client). */
    static boolean startsContainer(final List<String> command) {
        String program = command.get(0).substring(command.get(0).lastIndexOf('/') + 1);
        return ("docker".equals(program) || "podman".equals(program))
                && ContainerCommand.parse(command) instanceof ContainerCommand.Container;
    }

    /** The warning for a container line run without --container: the policy reaches only the client. */
    static String clientOnlyWarning(final List<String> command) {
        return "the policy reaches only the '" + command.get(0) + "' client, not the container (add --container): the"
                + " container's processes are started by its daemon; --container puts the container under the policy's cgroup"
                + " parts (docs/usage.md)";
    }

    static int run(final List<String> command, final Policy policy, final PolicyOptions options, final boolean verify,
            final RunWarnings warnings, final PrintWriter err)
            throws IOException, InterruptedException {
        ContainerCommand.Parsed parsed = ContainerCommand.parse(command);
        if (!(parsed instanceof ContainerCommand.Container c) || c.command().action() == ContainerAction.EXEC) {
            String why = parsed instanceof ContainerCommand.Unreadable u ? ": " + u.reason()
                    : parsed instanceof ContainerCommand.Container ? ": an exec joins a container as it is; place the container when it is"
                    + " started" : ", not '" + String.join(" ", command.subList(0, Math.min(2, command.size()))) + "'";
            throw new UsageException("--container needs a 'docker|podman run|create|build ...' command" + why);
        }
        if (!policy.needsCgroup() && policy.cpus().isEmpty() && !PerTaskParts.equivalent(policy).any()) {
            throw new UsageException("--container places the container by its cgroup: give --cpu-idle, --cpu-weight, --cpu-quota, --cpus,"
                    + " or --policy idle / --nice, whose cgroup equivalents stand in (--io cannot reach a container's processes)");
        }
        LaunchConfig config = options.launchConfig();
        ContainerPlacement placement = new ContainerPlacement(CgroupSystem.detect(), new DriverQuery());
        try (ContainerLaunch launch = ContainerLaunch.prepare(placement, c.command(), policy, options.cgroupParent(), config, System.getenv());
             SignalForwarder forwarder = SignalForwarder.install(config.kernel())) {
            warnings.print(launch.plan().warnings());
            err.flush();
            Process client;
            try {
                client = StandardStreams.apply(new ProcessBuilder(launch.argv())).start();
            } catch (IOException e) {
                StartFailure failure = StartFailure.of(command.get(0), e);
                err.println("schedpolicy: " + failure.message());
                return failure.exitCode();
            }
            forwarder.forwardTo(client.pid());
            if (verify) {
                report(launch, err);
            }
            return client.waitFor();
        }
    }

    /** What the kernel holds for the container, once its first process runs (or why there is nothing to read). */
    private static void report(final ContainerLaunch launch, final PrintWriter err) {
        if (launch.plan().command().action() == ContainerAction.BUILD) {
            err.println("schedpolicy: build placed with " + String.join(" ", launch.plan().inserted()) + "; "
                    + ContainerPlacement.BUILD_NOT_READ_BACK);
            err.flush();
            return;
        }
        ContainerReadBack readBack = new ContainerReadBack(CgroupSystem.detect(), dev.schedpolicy.engine.proc.ProcFs.system());
        Optional<ContainerReadBack.State> state = launch.plan().command().action() == ContainerAction.RUN
                ? launch.awaitRunning(readBack, VERIFY_BOUND) : Optional.empty();
        if (state.isPresent()) {
            List<String> mismatches = ContainerReadBack.mismatches(state.get(), launch.plan().policy());
            err.println("schedpolicy: kernel reports container " + state.get().id().substring(0, 12) + " (main pid " + state.get().pid()
                    + "): " + state.get().describe() + (mismatches.isEmpty() ? "" : "; NOT as asked: " + String.join("; ", mismatches)));
        } else {
            err.println("schedpolicy: container " + launch.id().map(id -> id.substring(0, 12)).orElse("(not created yet)")
                    + ": placed with " + String.join(" ", launch.plan().inserted()) + "; no process of it ran within "
                    + VERIFY_BOUND.toSeconds() + " s to read back");
        }
        err.flush();
    }
}
