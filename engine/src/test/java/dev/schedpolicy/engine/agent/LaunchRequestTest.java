package dev.schedpolicy.engine.agent;

import dev.schedpolicy.engine.policy.PolicyFloor;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LaunchRequestTest {
    @Test
    void shouldRejectABlankBlockKeySayingWhatIsAllowed() {
        assertThatThrownBy(() -> LaunchRequest.of(" ", "idle"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("non-blank");
        assertThatThrownBy(() -> LaunchRequest.of(null, "idle")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldRejectAPendingTimeoutThatIsNotPositive() {
        assertThatThrownBy(() -> LaunchRequest.of("b", "idle").pendingFor(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("positive duration");
        assertThatThrownBy(() -> LaunchRequest.of("b", "idle").pendingFor(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldMergeTheLayersOverTheNodeDefaultWhichStaysAFloor() {
        PolicyFloor.Floored floored = LaunchRequest.of("b", "normal+nice5").inside("io-be7")
                .onNode("batch+nice12", AgentLimits.DEFAULT, null).floored();
        assertThat(floored.policy().toCompact()).isEqualTo("batch+nice12+io-be7");
        assertThat(floored.kept()).isNotEmpty();

        AgentLimits above = new AgentLimits(false, 0, true, 0, true);
        assertThat(LaunchRequest.of("b", "nice5").onNode("nice12", above, null).floored().policy().toCompact())
                .as("an administrator who allows authors above the default").isEqualTo("nice5");
    }

    @Test
    void shouldKeepEachLayerWhereItWasPut() {
        LaunchRequest r = LaunchRequest.of("b", "idle").inside("batch").onNode("nice10", AgentLimits.DEFAULT, "/sys/fs/cgroup/cpu/x")
                .pendingFor(Duration.ofSeconds(7)).forCommand(List.of("make"), Map.of("A", "1"));
        assertThat(r).isEqualTo(new LaunchRequest("b", "idle", "batch", "nice10", AgentLimits.DEFAULT, "/sys/fs/cgroup/cpu/x",
                Duration.ofSeconds(7), List.of("make"), Map.of("A", "1"), false));
        assertThat(LaunchRequest.of("b", "idle").pendingTimeout()).isEqualTo(SchedPolicyAgent.DEFAULT_PENDING_TIMEOUT);
        assertThat(LaunchRequest.of("b", "idle").argv()).as("no command: a launch of the engine's own").isEmpty();
    }

    @Test
    void shouldReadOverridesAsALauncherHoldsThemOverThisJvmsEnvironment() {
        List<String> kv = new ArrayList<>(List.of("DOCKER_HOST=unix:///d.sock", "=nokey", "NOEQUALS", "EMPTY=", "B=x=y"));
        kv.add(null);
        Map<String, String> overrides = LaunchRequest.keyValues(kv);
        assertThat(overrides).containsOnly(Map.entry("DOCKER_HOST", "unix:///d.sock"), Map.entry("EMPTY", ""),
                Map.entry("B", "x=y"));
        Map<String, String> env = LaunchRequest.of("b", "idle").forCommand(List.of("docker", "ps"), overrides).environment();
        assertThat(env).containsEntry("DOCKER_HOST", "unix:///d.sock").containsEntry("PATH", System.getenv("PATH"));
    }

    /** The request crosses remoting to the agent as one object. */
    @Test
    void shouldSurviveSerializationWhole() throws Exception {
        LaunchRequest r = LaunchRequest.of("b", "idle").inside("batch").onNode("nice10", new AgentLimits(false, 0, true, 0, true), "/p")
                .pendingFor(Duration.ofSeconds(3)).forCommand(List.of("docker", "run", "img"), Map.of("A", "1"));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(r);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            assertThat(in.readObject()).usingRecursiveComparison().isEqualTo(r);
        }
    }

    @Test
    void shouldDropTheDefaultsFloorForAGuardedStepButNeverRunItAboveNormal() {
        AgentLimits raise = new AgentLimits(true, -5, true, 0);
        assertThat(LaunchRequest.of("b", null).onNode("idle+nice10", raise, null).guardedStep().floored().policy().isDefault())
                .as("nothing authored: as the agent runs, normal").isTrue();
        assertThat(LaunchRequest.of("b", "batch").onNode("idle+nice10", raise, null).guardedStep().floored().policy().toCompact())
                .as("its own block, without the default").isEqualTo("batch");
        PolicyFloor.Floored above = LaunchRequest.of("b", "normal+nice-5").onNode("idle", raise, null).guardedStep().floored();
        assertThat(above.policy().toCompact()).as("never above normal").isEqualTo("normal+nice0");
        assertThat(above.kept()).containsExactly("the guard's nice 0 is a floor: nice -5 would raise priority above it, so nice 0"
                + " is kept");
        assertThat(LaunchRequest.of("b", "idle+nice10").onNode("idle+nice10", raise, null).floored().policy().toCompact())
                .as("not guarded: the default stays a floor").isEqualTo("idle+nice10");
    }
}
