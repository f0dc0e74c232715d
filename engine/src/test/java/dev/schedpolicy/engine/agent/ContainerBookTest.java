package dev.schedpolicy.engine.agent;

import dev.schedpolicy.engine.container.ContainerCommand;
import dev.schedpolicy.engine.launch.LaunchConfig;
import dev.schedpolicy.engine.policy.Policy;
import dev.schedpolicy.engine.proc.ProcFs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An agent that cannot see its containers' processes (Docker outside of Docker, a remote DOCKER_HOST): a /proc of its
 * own without them, and a real {@code docker} client process (a script) standing for the remote daemon.
 */
class ContainerBookTest {
    private static final String ID = "c0ffee".repeat(10) + "abcd";

    @TempDir
    Path tmp;

    private Path fakeDocker(final Path state) throws IOException {
        Path docker = tmp.resolve("bin/docker");
        Files.createDirectories(docker.getParent());
        Files.writeString(docker, """
                #!/bin/sh
                case "$1" in
                run) for a in "$@"; do case "$a" in --cidfile=*) printf '%s' ID > "${a#--cidfile=}";; esac; done; echo ID ;;
                inspect) env > STATE.env; s=$(cat STATE); if [ "$s" = gone ]; then echo "Error: No such container: ID" >&2; exit 1; fi; echo "$s" ;;
                *) exit 2 ;;
                esac
                """.replace("ID", ID).replace("STATE", state.toString()));
        Files.setPosixFilePermissions(docker, PosixFilePermissions.fromString("rwxr-xr-x"));
        return docker;
    }

    /**
     * A started container is asked about later with the variables that chose its daemon; a withCredentials secret in a
     * DOCKER_ variable is not one of them and must not be held for the container's life.
     */
    @Test
    void shouldKeepOnlyTheVariablesThatChooseTheDaemonOfAStartedContainer() throws Exception {
        Path state = tmp.resolve("state.txt");
        Files.writeString(state, "running");
        Path docker = fakeDocker(state);
        LaunchConfig d = LaunchConfig.defaults();
        LaunchConfig config = new LaunchConfig(d.kernel(), new ProcFs(Files.createDirectories(tmp.resolve("proc"))), d.limits(),
                d.groups(), Files.createDirectories(tmp.resolve("run")), d.handshakeTimeout());
        ContainerBook book = new ContainerBook(config, Duration.ZERO);
        List<String> argv = List.of(docker.toString(), "run", "-d", "mini:1", "cat");
        ContainerCommand command = ((ContainerCommand.Container) ContainerCommand.parse(argv)).command();
        Map<String, String> env = Map.of("PATH", System.getenv("PATH"), "DOCKER_HOST", "tcp://remote:2376",
                "DOCKER_PASSWORD", "s3cret", "CONTAINER_REGISTRY_TOKEN", "t0ken");
        PreparedLaunch run = book.prepare(command, Policy.parse("weight50"), "b", Optional.empty(), config, env, ContainerFloor.NONE);
        assertThat(new ProcessBuilder(run.command(argv)).start().waitFor()).isZero();
        book.release(run.id(), Duration.ofMillis(300));

        book.reap();

        String asked = Files.readString(tmp.resolve("state.txt.env"));
        assertThat(asked).as("the environment the daemon was asked with later").contains("DOCKER_HOST=tcp://remote:2376")
                .doesNotContain("s3cret").doesNotContain("t0ken");
        book.clear();
    }

    @Test
    void shouldKeepARunningContainerItCannotSeeUntilItsDaemonSaysItIsGone() throws Exception {
        Path state = tmp.resolve("state.txt");
        Files.writeString(state, "running");
        Path docker = fakeDocker(state);
        Path proc = Files.createDirectories(tmp.resolve("proc"));
        LaunchConfig d = LaunchConfig.defaults();
        LaunchConfig config = new LaunchConfig(d.kernel(), new ProcFs(proc), d.limits(), d.groups(),
                Files.createDirectories(tmp.resolve("run")), d.handshakeTimeout());
        ContainerBook book = new ContainerBook(config, Duration.ZERO);
        List<String> argv = List.of(docker.toString(), "run", "-d", "-e", "TOKEN=s3cret", "mini:1", "cat");
        ContainerCommand command = ((ContainerCommand.Container) ContainerCommand.parse(argv)).command();
        Map<String, String> env = Map.of("PATH", System.getenv("PATH"), "DOCKER_HOST", "tcp://remote:2376", "TOKEN", "s3cret");

        PreparedLaunch run = book.prepare(command, Policy.parse("weight50"), "b", Optional.empty(), config, env, ContainerFloor.NONE);
        Process client = new ProcessBuilder(run.command(argv)).start();
        assertThat(client.waitFor()).isZero();
        book.release(run.id(), Duration.ofMillis(300));
        assertThat(book.startedCount()).isEqualTo(1);

        book.reap();
        assertThat(book.startedCount()).as("its daemon says it runs").isEqualTo(1);
        List<String> exec = List.of(docker.toString(), "exec", ID.substring(0, 12), "sh", "-c", "make");
        ContainerCommand execCommand = ((ContainerCommand.Container) ContainerCommand.parse(exec)).command();
        PreparedLaunch joined = book.prepare(execCommand, Policy.parse("weight50"), "b", Optional.empty(), config, env, ContainerFloor.NONE);
        assertThat(joined.command(exec)).as("a later step inside it still runs, with its marker").hasSize(exec.size() + 2)
                .containsSubsequence(exec).anyMatch(t -> t.startsWith("SCHEDPOLICY_EXEC="));
        book.abort(joined.id(), "not started in this test");

        Files.writeString(state, "gone");
        book.reap();
        assertThat(book.startedCount()).as("forgotten once its daemon says it is gone").isZero();
    }
}
