package dev.schedpolicy.engine.agent;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ContainerLaunchesTest {
    @Test
    void shouldRefuseAnExecOfClientsWhoseContainersWeNeverStart() {
        assertThat(ContainerLaunches.refusal(List.of("kubectl", "exec", "pod", "--", "make")))
                .hasValueSatisfying(m -> assertThat(m).contains("'kubectl exec'").contains("only the client would be policed"));
        assertThat(ContainerLaunches.refusal(List.of("/usr/local/bin/nerdctl", "exec", "c0ffee", "make"))).isPresent();
    }

    @Test
    void shouldLeaveDockerAndPodmanToTheContainerBookAndOrdinaryCommandsAlone() {
        assertThat(ContainerLaunches.refusal(List.of("/usr/bin/docker", "exec", "c0ffee", "sh", "-c", "make"))).isEmpty();
        assertThat(ContainerLaunches.refusal(List.of("podman", "exec", "c0ffee", "make"))).isEmpty();
        assertThat(ContainerLaunches.refusal(List.of("sh", "-c", "kubectl exec c make"))).isEmpty();
        assertThat(ContainerLaunches.refusal(List.of("make"))).isEmpty();
    }

    @Test
    void shouldTellABlockOnAKubernetesAgentThatContainerStepsBypassIt() {
        assertThat(ContainerLaunches.nodeNote("org.csanchez.jenkins.plugins.kubernetes.KubernetesSlave"))
                .hasValueSatisfying(m -> assertThat(m).contains("container('...')").contains("without the policy")
                        .contains("BestEffort"));
        assertThat(ContainerLaunches.nodeNote("hudson.slaves.DumbSlave")).isEmpty();
    }

    @Test
    void shouldRefuseABlockInsideDockerWorkflowsInsideAndLetOtherLaunchersBe() {
        assertThat(ContainerLaunches.blockInside(List.of("dev.schedpolicy.jenkins.PolicedLauncher",
                "org.jenkinsci.plugins.docker.workflow.WithContainerStep$Decorator$1", "hudson.Launcher$LocalLauncher")))
                .hasValueSatisfying(m -> assertThat(m).startsWith("a block inside docker.image(...).inside { } cannot reach")
                        .contains("put withSchedPolicy around inside { }"));
        assertThat(ContainerLaunches.blockInside(List.of("dev.schedpolicy.jenkins.PolicedLauncher", "hudson.Launcher$RemoteLauncher")))
                .isEmpty();
    }
}
