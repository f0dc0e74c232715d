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

    /** The kubernetes plugin's agent class: a pod whose container() steps its own launcher starts. */
    static final String KUBERNETES_AGENT = "org.csanchez.jenkins.plugins.kubernetes.KubernetesSlave";

    /**
     * What a block on a node of class {@code nodeClassName} must be told about containers, or empty. The kubernetes
     * plugin's container() launcher never calls the launcher it wraps (it starts {@code sh} in the container through
     * the API server and writes the command into it), so a block around container() is never asked and its steps
     * run without the policy and without a console line: the block says so when it starts.
     */
    public static Optional<String> nodeNote(final String nodeClassName) {
        if (!KUBERNETES_AGENT.equals(nodeClassName)) {
            return Optional.empty();
        }
        return Optional.of("this agent is a Kubernetes pod: steps inside container('...') are started through the Kubernetes API"
                + " by the kubernetes plugin's own launcher, which never calls this block's, so they run without the policy and"
                + " without a [schedpolicy] line; only steps in the agent's own container are policed. Set the pod template's"
                + " resources instead (no requests or limits: BestEffort, the lowest cpu weight; docs/jenkins.md)");
    }

    /** The launcher docker-workflow's inside (withDockerContainer) puts around its body: it runs each launch by docker exec. */
    static final String INSIDE_LAUNCHER = "org.jenkinsci.plugins.docker.workflow.WithContainerStep$Decorator";

    /**
     * Why a block cannot start inside the launchers named by {@code launcherClassNames} (the classes of the launcher chain
     * a block's body would launch through, outermost first), or empty when it can. Inside docker-workflow's inside, each
     * launch of the block would become a docker exec into a container the block did not start: the policy's prefix
     * would run in the container, where the policy shim is not, and the launch would wait for a handshake that never
     * comes. Said at once instead, with what works: the block around inside, which starts the container under the
     * policy and lets its execs join it.
     */
    public static Optional<String> blockInside(final List<String> launcherClassNames) {
        for (String name : launcherClassNames) {
            if (name.startsWith(INSIDE_LAUNCHER)) {
                return Optional.of("a block inside docker.image(...).inside { } cannot reach the container's processes (each of its"
                        + " launches is a docker exec into a container it did not start): put withSchedPolicy around inside { },"
                        + " which starts the container under the policy and runs the body's steps in its group");
            }
        }
        return Optional.empty();
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
