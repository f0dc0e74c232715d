package dev.schedpolicy.engine.agent;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ContainerLaunchesTest {
    @Test
    void shouldRefuseADockerExecLaunchSayingWhatWorksInstead() {
        // docker-workflow's WithContainerStep decorator starts: docker exec --env ... CONTAINER sh -c ...
        assertThat(ContainerLaunches.refusal(List.of("/usr/bin/docker", "exec", "--env", "A=1", "c0ffee", "sh", "-c", "make")))
                .hasValueSatisfying(m -> assertThat(m).contains("'docker exec'").contains("only the client would be policed")
                        .contains("--cpu-shares"));
        assertThat(ContainerLaunches.refusal(List.of("kubectl", "exec", "pod", "--", "make"))).isPresent();
    }

    @Test
    void shouldLetOrdinaryCommandsAndOtherDockerCommandsThrough() {
        assertThat(ContainerLaunches.refusal(List.of("sh", "-c", "docker exec c make"))).isEmpty();
        assertThat(ContainerLaunches.refusal(List.of("docker", "build", "."))).isEmpty();
        assertThat(ContainerLaunches.refusal(List.of("make"))).isEmpty();
    }
}
