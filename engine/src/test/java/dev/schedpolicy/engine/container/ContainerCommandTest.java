package dev.schedpolicy.engine.container;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ContainerCommandTest {
    private static ContainerCommand container(final String... argv) {
        ContainerCommand.Parsed parsed = ContainerCommand.parse(List.of(argv));
        assertThat(parsed).isInstanceOf(ContainerCommand.Container.class);
        return ((ContainerCommand.Container) parsed).command();
    }

    @Test
    void shouldReadTheRunThatDockerWorkflowsInsideIssues() {
        // DockerClient.run: docker run -t -d -u UID:GID [args] -w WS -v WS:WS:rw,z -e K=V ... IMAGE cat
        ContainerCommand c = container("/usr/bin/docker", "run", "-t", "-d", "-u", "1000:1000", "-w", "/ws", "-v", "/ws:/ws:rw,z",
                "-e", "BUILD_ID=7", "--entrypoint", "cat", "mini:1", "cat");
        assertThat(c.runtime()).isEqualTo(ContainerRuntime.DOCKER);
        assertThat(c.action()).isEqualTo(ContainerAction.RUN);
        assertThat(c.target()).isEqualTo("mini:1");
        assertThat(c.insertAt()).as("the image").isEqualTo(14);
        assertThat(c.option("--detach")).hasValue("");
        assertThat(c.option("--user")).hasValue("1000:1000");
        assertThat(c.withOptions(List.of("--cgroup-parent=/p"))).containsExactly("/usr/bin/docker", "run", "-t",
                "-d", "-u", "1000:1000", "-w", "/ws", "-v", "/ws:/ws:rw,z", "-e", "BUILD_ID=7", "--entrypoint", "cat", "--cgroup-parent=/p",
                "mini:1", "cat");
    }

    @Test
    void shouldSkipGlobalOptionsAndTheContainerGroupWord() {
        ContainerCommand c = container("docker", "-H", "unix:///tmp/d.sock", "--context=x", "container", "create", "-itd",
                "--name", "builder", "--cpus=2", "-c", "512", "img", "make", "--cpus", "9");
        assertThat(c.action()).isEqualTo(ContainerAction.CREATE);
        assertThat(c.globalOptions()).containsExactly("-H", "unix:///tmp/d.sock", "--context=x");
        assertThat(c.insertAt()).as("the image").isEqualTo(12);
        assertThat(c.option("--name")).hasValue("builder");
        assertThat(c.option("--cpus")).as("the command's own --cpus after the image is not an option").hasValue("2");
        assertThat(c.option("--cpu-shares")).hasValue("512");
        assertThat(c.target()).isEqualTo("img");
    }

    @Test
    void shouldReadAttachedShortValuesAndTheExecTarget() {
        ContainerCommand exec = container("docker", "exec", "-eA=1", "--env", "B=2", "-u", "0", "c0ffee", "env", "A=1", "sh", "-c", "make");
        assertThat(exec.action()).isEqualTo(ContainerAction.EXEC);
        assertThat(exec.target()).isEqualTo("c0ffee");
        ContainerCommand podman = container("/usr/bin/podman", "--remote", "run", "--rm", "--", "alpine", "true");
        assertThat(podman.runtime()).isEqualTo(ContainerRuntime.PODMAN);
        assertThat(podman.target()).isEqualTo("alpine");
    }

    @Test
    void shouldLeaveOrdinaryCommandsAndOtherSubcommandsAlone() {
        assertThat(ContainerCommand.parse(List.of("sh", "-c", "docker run img"))).isInstanceOf(ContainerCommand.NotContainer.class);
        assertThat(ContainerCommand.parse(List.of("docker", "stop", "--time=1", "c0ffee"))).isInstanceOf(ContainerCommand.NotContainer.class);
        assertThat(ContainerCommand.parse(List.of("docker", "-v"))).isInstanceOf(ContainerCommand.NotContainer.class);
        assertThat(ContainerCommand.parse(List.of("docker", "image", "ls"))).isInstanceOf(ContainerCommand.NotContainer.class);
        assertThat(ContainerCommand.parse(List.of("docker", "image", "run", "img"))).isInstanceOf(ContainerCommand.NotContainer.class);
        assertThat(ContainerCommand.parse(List.of("docker", "container", "build", "."))).isInstanceOf(ContainerCommand.NotContainer.class);
    }

    @Test
    void shouldCallALineItCannotReadUnreadableSayingWhichToken() {
        assertThat(ContainerCommand.parse(List.of("docker", "--frobnicate", "x", "run", "img")))
                .isInstanceOfSatisfying(ContainerCommand.Unreadable.class, u -> assertThat(u.reason()).contains("'--frobnicate'"));
        assertThat(ContainerCommand.parse(List.of("docker", "run", "-d")))
                .isInstanceOfSatisfying(ContainerCommand.Unreadable.class, u -> assertThat(u.reason()).contains("names no image"));
    }

    @Test
    void shouldReadFlagsOfNewerClientsWithoutSwallowingTheNextOption() {
        // docker 28's --use-api-socket and podman's --rootfs take no value: the option after them is read as one
        ContainerCommand docker = container("docker", "run", "--use-api-socket", "--cgroup-parent=/", "img", "true");
        assertThat(docker.option("--cgroup-parent")).hasValue("/");
        assertThat(docker.target()).isEqualTo("img");
        ContainerCommand podman = container("podman", "run", "--rootfs", "--cgroup-parent", "/", "/srv/root", "true");
        assertThat(podman.option("--cgroup-parent")).hasValue("/");
        assertThat(podman.target()).isEqualTo("/srv/root");
    }

    @Test
    void shouldRefuseAnOptionItDoesNotKnowRatherThanGuessWhetherItTakesAValue() {
        assertThat(ContainerCommand.parse(List.of("docker", "run", "--brand-new", "-e", "TOKEN=s3cret", "--cgroup-parent=/", "img")))
                .isInstanceOfSatisfying(ContainerCommand.Unreadable.class, u -> assertThat(u.reason()).contains("'--brand-new'")
                        .contains("--brand-new=VALUE").doesNotContain("s3cret"));
        assertThat(ContainerCommand.parse(List.of("docker", "run", "-Z", "img")))
                .isInstanceOfSatisfying(ContainerCommand.Unreadable.class, u -> assertThat(u.reason()).contains("'-Z'"));
        assertThat(ContainerCommand.parse(List.of("docker", "-Xtcp://user:s3cret@host", "run", "img")))
                .isInstanceOfSatisfying(ContainerCommand.Unreadable.class, u -> assertThat(u.reason()).contains("'-X'")
                        .doesNotContain("s3cret"));
        ContainerCommand written = container("docker", "run", "--brand-new=1", "--cgroup-parent=/", "img");
        assertThat(written.option("--cgroup-parent")).as("an unknown --name=value cannot shift the parse").hasValue("/");
    }

    @Test
    void shouldInsertNewOptionsLastBeforeTheImageSoTheyWinOverTheCommandsOwn() {
        ContainerCommand c = container("docker", "run", "--cgroup-parent", "/", "-d", "img", "cat");
        assertThat(c.withOptions(List.of("--cgroup-parent=/idle"))).containsExactly("docker", "run", "--cgroup-parent", "/", "-d",
                "--cgroup-parent=/idle", "img", "cat");
        ContainerCommand dashes = container("podman", "run", "--rm", "--", "alpine", "true");
        assertThat(dashes.withOptions(List.of("--cpus=1"))).containsExactly("podman", "run", "--rm", "--cpus=1", "--", "alpine", "true");
    }

    @Test
    void shouldKeepNoEnvironmentValuesAndNameALineWithoutItsArguments() {
        ContainerCommand c = container("docker", "run", "-e", "TOKEN=s3cret", "--env=KEY=s3cret", "-eP=s3cret", "img");
        assertThat(c.options().values()).noneMatch(v -> v.contains("s3cret"));
        assertThat(c.describe()).isEqualTo("'docker run'");
        assertThat(ContainerCommand.parse(List.of("docker", "run", "-e", "TOKEN=s3cret")))
                .isInstanceOfSatisfying(ContainerCommand.Unreadable.class, u -> assertThat(u.reason()).contains("names no image")
                        .doesNotContain("s3cret"));
    }

    @Test
    void shouldReadABuildWhoseOptionsAndContextComeInAnyOrderAndPlaceItLast() {
        ContainerCommand c = container("docker", "-H", "unix:///d.sock", "build", "-t", "x:1", ".", "--network=none", "-f", "Dockerfile.ci");
        assertThat(c.action()).isEqualTo(ContainerAction.BUILD);
        assertThat(c.target()).isEqualTo(".");
        assertThat(c.option("--tag")).contains("x:1");
        assertThat(c.option("--file")).contains("Dockerfile.ci");
        assertThat(c.withOptions(List.of("--cgroup-parent=/idle"))).endsWith("-f", "Dockerfile.ci", "--cgroup-parent=/idle");
        assertThat(container("docker", "image", "build", "-").target()).isEqualTo("-");
        assertThat(container("docker", "builder", "build", "-q", "ctx").target()).isEqualTo("ctx");
        ContainerCommand dashes = container("docker", "build", "--pull", "--", "ctx");
        assertThat(dashes.withOptions(List.of("--cpu-shares=2"))).containsExactly("docker", "build", "--pull", "--cpu-shares=2", "--", "ctx");
        assertThat(container("podman", "build", "-t", "x", "-v", "/a:/b").target()).isEqualTo(".");
    }

    @Test
    void shouldCallABuildItCannotReadUnreadableAndKeepNoBuildArgument() {
        assertThat(ContainerCommand.parse(List.of("docker", "build", "--frobnicate", "x", ".")))
                .isInstanceOfSatisfying(ContainerCommand.Unreadable.class, u -> assertThat(u.reason()).contains("'--frobnicate'")
                        .contains("build context"));
        assertThat(ContainerCommand.parse(List.of("docker", "build", "a", "b")))
                .isInstanceOfSatisfying(ContainerCommand.Unreadable.class, u -> assertThat(u.reason()).contains("2 build contexts"));
        assertThat(ContainerCommand.parse(List.of("docker", "build", "-t", "x")))
                .isInstanceOfSatisfying(ContainerCommand.Unreadable.class, u -> assertThat(u.reason()).contains("no build context"));
        ContainerCommand c = container("docker", "build", "--build-arg", "TOKEN=s3cret", "--build-arg=K=s3cret", ".");
        assertThat(c.options().values()).noneMatch(v -> v.contains("s3cret"));
        assertThat(c.describe()).isEqualTo("'docker build'");
    }
}
