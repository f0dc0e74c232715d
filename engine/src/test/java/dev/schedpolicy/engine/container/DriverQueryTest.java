package dev.schedpolicy.engine.container;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/** The daemon query against fake {@code docker} clients: a real process that answers, fails or hangs. */
class DriverQueryTest {
    @TempDir
    Path tmp;

    private Path client(final String body) throws IOException {
        Path bin = tmp.resolve("bin");
        Files.createDirectories(bin);
        Path docker = bin.resolve("docker");
        Files.writeString(docker, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(docker, PosixFilePermissions.fromString("rwxr-xr-x"));
        return docker;
    }

    private static ContainerCommand run(final Path docker) {
        return ((ContainerCommand.Container) ContainerCommand.parse(List.of(docker.toString(), "run", "mini:1"))).command();
    }

    @Test
    void shouldReadTheDriverTheClientPrints() throws IOException {
        Path docker = client("echo cgroupfs");
        assertThat(new DriverQuery(Duration.ofSeconds(10)).driverFor(run(docker), Map.of())).isEqualTo(CgroupDriver.CGROUPFS);
    }

    @Test
    void shouldGiveUpOnAHungDaemonAndKillTheClientWithItsChildren() throws IOException {
        Path pidFile = tmp.resolve("sleeper.pid");
        // a client stuck on a hung dockerd: it never prints, never exits, and holds its stdout open through a child
        Path docker = client("sleep 300 & echo $! > " + pidFile + "\nwait");
        long start = System.nanoTime();
        assertTimeoutPreemptively(Duration.ofSeconds(20), () ->
                assertThatThrownBy(() -> new DriverQuery(Duration.ofSeconds(1)).driverFor(run(docker), Map.of()))
                        .isInstanceOf(ContainerRefusal.class).hasMessageContaining("did not answer within 1 s")
                        .hasMessageNotContaining("sleep"));
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
        long sleeper = Long.parseLong(Files.readString(pidFile).trim());
        assertThat(ProcessHandle.of(sleeper).map(ProcessHandle::isAlive).orElse(false)).as("the client's child is killed too").isFalse();
    }

    /** A client that counts how often it was asked (one line per call in a file beside it). */
    private Path countingClient() throws IOException {
        return client("echo asked >> " + tmp.resolve("calls") + "\necho cgroupfs");
    }

    private long calls() throws IOException {
        return Files.exists(tmp.resolve("calls")) ? Files.readAllLines(tmp.resolve("calls")).size() : 0;
    }

    /**
     * The kept answers are keyed on the variables that choose the daemon: a withCredentials password in the environment
     * is not one of them, so it neither makes a new query nor stays in the JVM as part of a key.
     */
    @Test
    void shouldAskOnceForOneDaemonWhateverSecretsTheEnvironmentCarries() throws IOException {
        Path docker = countingClient();
        DriverQuery query = new DriverQuery(Duration.ofSeconds(10));

        query.driverFor(run(docker), Map.of("DOCKER_HOST", "tcp://d:2376", "DOCKER_PASSWORD", "first-s3cret"));
        query.driverFor(run(docker), Map.of("DOCKER_HOST", "tcp://d:2376", "DOCKER_PASSWORD", "second-s3cret"));

        assertThat(calls()).isEqualTo(1);
    }

    /** Answers for many daemons (or many environments) do not pile up for the JVM's life: the oldest go. */
    @Test
    void shouldKeepABoundedNumberOfAnswers() throws IOException {
        Path docker = countingClient();
        DriverQuery query = new DriverQuery(Duration.ofSeconds(10));
        for (int i = 0; i <= DriverQuery.MAX_ANSWERS; i++) {
            query.driverFor(run(docker), Map.of("DOCKER_HOST", "tcp://d" + i + ":2376"));
        }
        assertThat(calls()).isEqualTo(DriverQuery.MAX_ANSWERS + 1);

        query.driverFor(run(docker), Map.of("DOCKER_HOST", "tcp://d0:2376"));

        assertThat(calls()).as("the first daemon's answer was dropped, so it is asked again").isEqualTo(DriverQuery.MAX_ANSWERS + 2);
    }

    @Test
    void shouldNameOnlyTheClientWhenItFails() throws IOException {
        Path docker = client("echo 'Cannot connect to the Docker daemon'; exit 1");
        List<String> withHost = List.of(docker.toString(), "-H", "tcp://user:s3cret@host:2376", "run", "mini:1");
        ContainerCommand command = ((ContainerCommand.Container) ContainerCommand.parse(withHost)).command();
        assertThatThrownBy(() -> new DriverQuery(Duration.ofSeconds(10)).driverFor(command, Map.of()))
                .hasMessageContaining("Cannot connect to the Docker daemon").hasMessageContaining("exited 1")
                .hasMessageNotContaining("s3cret");
    }
}
