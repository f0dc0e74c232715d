package dev.schedpolicy.engine.agent;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The container clients whose exec we cannot check: nerdctl, kubectl and crictl start the command inside a container
 * (or a pod) through a daemon or an API server, where no policy of this launch reaches it, and we never start their
 * containers under a policy. docker and podman are handled by {@link ContainerBook}: their run/create is placed under
 * the policy, and an exec into a container we started runs in its group.
 */
public final class ContainerLaunches {
    private static final Set<String> UNCHECKED = Set.of("nerdctl", "kubectl", "crictl");

    private ContainerLaunches() {
    }

    /** Why {@code argv} cannot be policed, or empty when it can (or is for {@link ContainerBook} to decide). */
    public static Optional<String> refusal(final List<String> argv) {
        if (argv.size() < 2) {
            return Optional.empty();
        }
        String program = argv.get(0).substring(argv.get(0).lastIndexOf('/') + 1);
        if (UNCHECKED.contains(program) && argv.get(1).equals("exec")) {
            return Optional.of("'" + program + " exec' starts the command inside a container through the runtime's daemon,"
                    + " where no policy of this launch reaches it (only the client would be policed); run the build"
                    + " outside the container block, or give the container itself a CPU limit (e.g. docker --cpu-shares,"
                    + " --cpus, or a cgroup parent with cpu.idle; on Kubernetes the pod's resources, docs/jenkins.md)");
        }
        return Optional.empty();
    }
}
