package dev.schedpolicy.engine.agent;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Park-and-release cannot reach a process a container runtime starts: {@code docker exec} (what
 * docker-workflow's {@code withDockerContainer} launches) asks the runtime's daemon to start the
 * command, so the shim would police only the client, and a shim path prepended inside the
 * container does not exist there. Such launches are refused with words saying what works instead.
 */
public final class ContainerLaunches {
    private static final Set<String> CLIENTS = Set.of("docker", "podman", "nerdctl", "kubectl", "crictl");

    private ContainerLaunches() {
    }

    /** Why {@code argv} cannot be policed, or empty when it can. */
    public static Optional<String> refusal(final List<String> argv) {
        if (argv.size() < 2) {
            return Optional.empty();
        }
        String program = argv.get(0).substring(argv.get(0).lastIndexOf('/') + 1);
        if (CLIENTS.contains(program) && argv.get(1).equals("exec")) {
            return Optional.of("'" + program + " exec' starts the command inside a container through the runtime's daemon,"
                    + " where no policy of this launch reaches it (only the client would be policed); run the build"
                    + " outside the container block, or give the container itself a CPU limit (e.g. docker --cpu-shares,"
                    + " --cpus, or a cgroup parent with cpu.idle)");
        }
        return Optional.empty();
    }
}
