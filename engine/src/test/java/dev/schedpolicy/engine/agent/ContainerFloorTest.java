package dev.schedpolicy.engine.agent;

import dev.schedpolicy.engine.container.ContainerCommand;
import dev.schedpolicy.engine.container.ContainerRefusal;
import dev.schedpolicy.engine.policy.Policy;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Issue 31 item 4: what a container that can leave its group meets under a floor, with raising allowed, and without a floor. */
class ContainerFloorTest {
    private static final ContainerCommand PRIVILEGED = ((ContainerCommand.Container) ContainerCommand.parse(List.of("docker", "run",
            "-e", "TOKEN=s3cret", "--privileged", "--cgroupns=host", "mini:1", "cat"))).command();
    private static final ContainerCommand PLAIN = ((ContainerCommand.Container) ContainerCommand.parse(List.of("docker", "run",
            "-v", "/ws:/ws", "mini:1", "cat"))).command();

    @Test
    void shouldRefuseUnderTheFloorInOneLineSayingWhatToDo() {
        ContainerFloor floor = ContainerFloor.of("idle", AgentLimits.DEFAULT);
        assertThatThrownBy(() -> floor.check(PRIVILEGED, Policy.parse("idle"))).isInstanceOf(ContainerRefusal.class)
                .hasMessageStartingWith("'docker run' has --privileged (")
                .hasMessageContaining("which let the container leave the administrator's floor 'idle' on this agent: leave it out of"
                        + " the container's options")
                .hasMessageContaining("Docker access is root-equivalent")
                .hasMessageNotContaining("s3cret").hasMessageNotContaining("\n");
        assertThat(floor.check(PLAIN, Policy.parse("idle"))).isEmpty();
    }

    @Test
    void shouldOnlyRecordThatTheFloorCannotHoldWhereRaisingIsAllowed() {
        ContainerFloor floor = ContainerFloor.of("idle", new AgentLimits(true, -20, true, 0));
        assertThat(floor.check(PRIVILEGED, Policy.parse("idle"))).singleElement().asString()
                .startsWith("the administrator's floor 'idle' (raising priorities is allowed here) cannot hold: 'docker run' has --privileged");
    }

    @Test
    void shouldRecordThatTheAuthorsOwnPolicyCannotHoldWithoutAFloor() {
        assertThat(ContainerFloor.of("", AgentLimits.DEFAULT).check(PRIVILEGED, Policy.parse("cpu-idle"))).singleElement().asString()
                .startsWith("'cpu-idle' cannot hold: 'docker run' has --privileged");
        assertThat(ContainerFloor.of("idle", new AgentLimits(false, 0, true, 0, true)).check(PRIVILEGED, Policy.parse("normal")))
                .as("authors may run above the default: it is no floor").singleElement().asString().startsWith("'normal' cannot hold");
    }
}
