package dev.schedpolicy.engine.container;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UnplacedStartsTest {
    private static final String WORDS = "the block's policy 'idle'";

    @Test
    void shouldSayABuildxBuildIsNotPlaced() {
        assertThat(UnplacedStarts.noteFor(List.of("docker", "buildx", "build", "-t", "x", "."), WORDS)).hasValueSatisfying(note -> assertThat(note)
                .startsWith("'docker buildx build' NOT placed: BuildKit runs its RUN steps itself")
                .contains("outside the block's policy 'idle'").contains("DOCKER_BUILDKIT=0 docker build"));
        assertThat(UnplacedStarts.noteFor(List.of("/usr/bin/docker", "--host=unix:///d.sock", "buildx", "bake"), WORDS))
                .hasValueSatisfying(note -> assertThat(note).startsWith("'docker buildx bake' NOT placed"));
    }

    @Test
    void shouldSayComposeStartsAreNotPlacedPastComposesOwnOptions() {
        assertThat(UnplacedStarts.noteFor(List.of("docker", "compose", "-f", "ci.yml", "--project-name", "up", "up", "-d"), WORDS))
                .hasValueSatisfying(note -> assertThat(note).startsWith("'docker compose up' NOT placed: compose starts"
                        + " its containers through the daemon's API"));
        assertThat(UnplacedStarts.noteFor(List.of("docker", "compose", "-p", "up", "ps"), WORDS)).as("a project named up").isEmpty();
        assertThat(UnplacedStarts.noteFor(List.of("docker", "compose", "down"), WORDS)).isEmpty();
    }

    @Test
    void shouldSayNothingOfLinesThatStartNothingOrThatTheWrappersPlace() {
        assertThat(UnplacedStarts.noteFor(List.of("docker", "buildx", "ls"), WORDS)).isEmpty();
        assertThat(UnplacedStarts.noteFor(List.of("docker", "build", "."), WORDS)).isEmpty();
        assertThat(UnplacedStarts.noteFor(List.of("docker", "ps"), WORDS)).isEmpty();
        assertThat(UnplacedStarts.noteFor(List.of("docker", "buildx"), WORDS)).isEmpty();
        assertThat(UnplacedStarts.noteFor(List.of("docker", "--frobnicate", "buildx", "build", "."), WORDS))
                .as("an unknown global option may take the next word as its value").isEmpty();
        assertThat(UnplacedStarts.noteFor(List.of("podman", "buildx", "build", "."), WORDS)).isEmpty();
        assertThat(UnplacedStarts.noteFor(List.of(), WORDS)).isEmpty();
    }

    @Test
    void shouldTellABuildThatItsEnvironmentSendsToBuildKit() {
        ContainerCommand build = ((ContainerCommand.Container) ContainerCommand.parse(List.of("docker", "build", "."))).command();
        assertThat(UnplacedStarts.buildKitChosen(build, Map.of("DOCKER_BUILDKIT", "1"))).isTrue();
        assertThat(UnplacedStarts.buildKitChosen(build, Map.of("DOCKER_BUILDKIT", "true"))).isTrue();
        assertThat(UnplacedStarts.buildKitChosen(build, Map.of("DOCKER_BUILDKIT", "0"))).isFalse();
        assertThat(UnplacedStarts.buildKitChosen(build, Map.of())).isFalse();
        ContainerCommand podman = ((ContainerCommand.Container) ContainerCommand.parse(List.of("podman", "build", "."))).command();
        assertThat(UnplacedStarts.buildKitChosen(podman, Map.of("DOCKER_BUILDKIT", "1"))).as("podman has no BuildKit").isFalse();
        assertThat(UnplacedStarts.buildKitTail()).contains("NOT placed").contains("DOCKER_BUILDKIT=0");
    }
}
