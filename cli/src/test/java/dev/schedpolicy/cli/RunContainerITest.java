package dev.schedpolicy.cli;

import dev.schedpolicy.engine.cgroup.CgroupSystem;
import dev.schedpolicy.engine.container.TestDocker;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code schedpolicy run --container} with a real daemon, as a real process: the container it starts is read back from
 * /proc here. Without --container a docker line runs exactly as given (someone lowering their docker client for other
 * reasons is not surprised), with a warning that the policy reaches only the client.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 180, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RunContainerITest {
    private TestDocker docker;
    private final CgroupSystem cgroups = CgroupSystem.detect();

    @BeforeEach
    void daemon() {
        docker = TestDocker.connect();
    }

    @AfterEach
    void cleanUp() throws IOException {
        if (docker != null) {
            docker.close();
        }
    }

    private record Ran(int status, String out, String err) {
    }

    private Ran schedpolicy(final String... args) throws Exception {
        return schedpolicyWith(java.util.Map.of(), args);
    }

    private Ran schedpolicyWith(final java.util.Map<String, String> env, final String... args) throws Exception {
        ProcessBuilder pb = RunProcessITest.schedpolicy(args);
        pb.environment().putAll(docker.env());
        pb.environment().putAll(env);
        Process p = pb.start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        return new Ran(p.waitFor(), out, err);
    }

    private List<String> detachedBusybox() {
        return List.of("docker", "run", "-d", "--label", TestDocker.LABEL, "--network", "none", TestDocker.IMAGE, "sleep", "60");
    }

    private String[] args(final List<String> options, final List<String> command) {
        List<String> all = new ArrayList<>(options);
        all.add("--");
        all.addAll(command);
        return all.toArray(new String[0]);
    }

    private String cpuGroupOf(final long pid) throws IOException {
        return cgroups.cpuCgroupOf(pid);
    }

    @Test
    void shouldStartTheContainerUnderTheIdleParentWithContainer() throws Exception {
        Path idle = docker.parent("schedpolicy-test-idle", true);
        Ran r = schedpolicy(args(List.of("run", "--container", "--cpu-idle", "--cpus", "0", "--cgroup-parent", idle.toString(), "--verify"),
                detachedBusybox()));
        assertThat(r.status()).as(r.err()).isZero();
        String id = r.out();
        long pid = docker.pidOf(id);
        assertThat(cpuGroupOf(pid)).isEqualTo(cgroups.cpuPathOf(idle) + "/" + id);
        assertThat(Files.readString(idle.resolve("cpu.idle")).trim()).isEqualTo("1");
        assertThat(Files.readAllLines(Path.of("/proc/" + pid + "/status"))).contains("Cpus_allowed_list:\t0");
        assertThat(r.err()).contains("schedpolicy: kernel reports container " + id.substring(0, 12))
                .contains("idle through " + cgroups.cpuPathOf(idle)).doesNotContain("NOT as asked");
    }

    /**
     * A build's RUN step runs in a container its builder makes: the classic builder makes it under the build's
     * --cgroup-parent, so the step itself reports its group (BuildKit ignores the option: the line says it is not read back).
     */
    @Test
    void shouldPutAClassicBuildsRunStepUnderTheIdleParent() throws Exception {
        Path idle = docker.parent("schedpolicy-test-idle", true);
        Path context = Files.createTempDirectory("schedpolicy-build");
        String tag = "schedpolicy-test-build:" + ProcessHandle.current().pid();
        try {
            Files.writeString(context.resolve("Dockerfile"), "FROM " + TestDocker.IMAGE + "\nRUN grep cpu /proc/self/cgroup\n");
            Ran r = schedpolicyWith(java.util.Map.of("DOCKER_BUILDKIT", "0"), args(List.of("run", "--container", "--cpu-idle",
                    "--cgroup-parent", idle.toString(), "--verify"), List.of("docker", "build", "--no-cache", "--network", "none",
                    "-t", tag, context.toString())));
            assertThat(r.status()).as(r.err()).isZero();
            assertThat(r.out()).as("the RUN step's own /proc/self/cgroup").containsPattern("cpu[a-z,]*:" + cgroups.cpuPathOf(idle) + "/[0-9a-f]{64}");
            assertThat(r.err()).contains("schedpolicy: build placed with --cgroup-parent=" + cgroups.cpuPathOf(idle))
                    .contains("its RUN steps follow it only with the classic builder");
        } finally {
            docker.run("docker", "rmi", "-f", tag);
            Files.deleteIfExists(context.resolve("Dockerfile"));
            Files.deleteIfExists(context);
        }
    }

    /**
     * Issue 33 item 5: a docker build a policed script runs gets a group of its own under the parent (its RUN steps under
     * it), which the runtime made in every hierarchy and never removes: run removes it before it returns.
     */
    @Test
    void shouldGiveAScriptsDockerBuildAGroupOfItsOwnAndRemoveItEverywhere() throws Exception {
        Path idle = docker.parent("schedpolicy-test-idle", true);
        Path context = Files.createTempDirectory("schedpolicy-build");
        try {
            Files.writeString(context.resolve("Dockerfile"), "FROM " + TestDocker.IMAGE + "\nRUN grep cpu /proc/self/cgroup\n");
            Ran r = schedpolicy("run", "--policy", "idle", "--cgroup-parent", idle.toString(), "--verify", "--", "sh", "-c",
                    "docker build --no-cache --network none " + context);
            assertThat(r.status()).as(r.err()).isZero();
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("cpu[a-z,]*:(" + java.util.regex.Pattern.quote(cgroups.cpuPathOf(idle))
                    + "/schedpolicy-[0-9]+-[0-9a-f]{12}-[0-9]+)/[0-9a-f]{64}").matcher(r.out());
            assertThat(m.find()).as("the RUN step's own /proc/self/cgroup: " + r.out()).isTrue();
            String buildGroup = m.group(1);
            assertThat(r.err()).contains("schedpolicy: 'docker build' run by the command: placed with --cgroup-parent=" + buildGroup
                    + "; " + dev.schedpolicy.engine.container.ContainerPlacement.DOCKER_BUILD_GROUP);
            assertThat(cgroups.hierarchies().stream().map(h -> h.dirOf(buildGroup)).filter(Files::isDirectory).toList())
                    .as("the build's own group, in every hierarchy").isEmpty();
        } finally {
            Files.deleteIfExists(context.resolve("Dockerfile"));
            Files.deleteIfExists(context);
        }
    }

    /** Issue 33 item 5: the docker lines a policed script runs are placed through the wrappers on its PATH. */
    @Test
    void shouldPlaceTheContainersAPolicedScriptStartsAndRefuseALineItCannotRead() throws Exception {
        Path idle = docker.parent("schedpolicy-test-idle", true);
        String script = String.join(" ", detachedBusybox()) + " && docker ps -q --filter label=" + TestDocker.LABEL + " | wc -l";
        Ran r = schedpolicy("run", "--policy", "idle", "--cgroup-parent", idle.toString(), "--verify", "--", "sh", "-c", script);
        assertThat(r.status()).as(r.err()).isZero();
        String id = r.out().lines().findFirst().orElseThrow();
        assertThat(cpuGroupOf(docker.pidOf(id))).as("placed though the policed command was sh").isEqualTo(cgroups.cpuPathOf(idle) + "/" + id);
        assertThat(r.out().lines().skip(1).findFirst()).as("docker ps ran as given through the wrapper").hasValue("1");
        assertThat(r.err()).contains("schedpolicy: 'docker run' run by the command: placed with --cgroup-parent=" + cgroups.cpuPathOf(idle));

        Ran refused = schedpolicy("run", "--nice", "19", "--", "sh", "-c", "docker run --frobnicate x " + TestDocker.IMAGE + " true; echo status $?");
        assertThat(refused.status()).as(refused.err()).isZero();
        assertThat(refused.out()).isEqualTo("status 125");
        assertThat(refused.err()).contains("schedpolicy: 'docker run' has option '--frobnicate'").contains("not run");

        // BuildKit's RUN steps cannot be placed: the line runs as given and the command's output says so, even without --verify
        Ran buildx = schedpolicy("run", "--nice", "19", "--", "sh", "-c", "docker buildx build -q - </dev/null; echo status $?");
        Ran buildxGiven = schedpolicy("run", "--nice", "19", "--no-client-wrappers", "--", "sh", "-c",
                "docker buildx build -q - </dev/null; echo status $?");
        assertThat(buildx.out()).as(buildx.err()).isEqualTo(buildxGiven.out()).startsWith("status ");
        assertThat(buildx.err().lines().filter(l -> l.startsWith("schedpolicy: warning: 'docker buildx build' NOT placed: BuildKit")))
                .as(buildx.err()).hasSize(1);
        assertThat(buildxGiven.err()).doesNotContain("NOT placed");

        Ran asGiven = schedpolicy(args(List.of("run", "--nice", "19", "--no-client-wrappers"), List.of("sh", "-c", String.join(" ", detachedBusybox()))));
        assertThat(asGiven.status()).as(asGiven.err()).isZero();
        String plain = cpuGroupOf(docker.pidOf(asGiven.out()));
        assertThat(cgroups.limitsOf(cgroups.cpuDirOf(plain)).weight()).as("not placed: Docker's default weight").hasValue(100);
    }

    @Test
    void shouldRunADockerLineAsGivenWithoutContainerAndSaySo() throws Exception {
        Path plain = docker.parent("schedpolicy-test-plain", false);
        List<String> line = new ArrayList<>(detachedBusybox());
        line.add(2, "--cgroup-parent=" + cgroups.cpuPathOf(plain)); // the line's own placement, which run must not change
        Ran r = schedpolicy(args(List.of("run", "--cpu-weight", "50"), line));
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(r.err()).contains("warning: the policy reaches only the 'docker' client, not the container (add --container)");
        String group = cpuGroupOf(docker.pidOf(r.out()));
        assertThat(group).isEqualTo(cgroups.cpuPathOf(plain) + "/" + r.out());
        assertThat(cgroups.limitsOf(cgroups.cpuDirOf(group)).weight()).as("Docker's default weight").hasValue(100);
    }

    /** Issue 24 item 2: --policy idle puts the container under the idle parent, nice 19 gives it the same share as weight. */
    @Test
    void shouldApplyTheCgroupEquivalentOfPerTaskPartsAndSaySoInOneLine() throws Exception {
        Path idle = docker.parent("schedpolicy-test-idle", true);
        Ran r = schedpolicy(args(List.of("run", "--container", "--policy", "idle", "--cgroup-parent", idle.toString(), "--verify"),
                detachedBusybox()));
        assertThat(r.status()).as(r.err()).isZero();
        assertThat(cpuGroupOf(docker.pidOf(r.out()))).isEqualTo(cgroups.cpuPathOf(idle) + "/" + r.out());
        assertThat(r.err().lines().filter(l -> l.contains("applied its cgroup equivalent instead, cpu-idle"))).hasSize(1);
        assertThat(r.err()).doesNotContain("NOT as asked");
        Ran niced = schedpolicy(args(List.of("run", "--container", "--nice", "19", "--verify"), detachedBusybox()));
        assertThat(niced.status()).as(niced.err()).isZero();
        String group = cpuGroupOf(docker.pidOf(niced.out()));
        assertThat(cgroups.limitsOf(cgroups.cpuDirOf(group)).weight()).hasValue(1);
    }

    /** Without an idle parent, class idle runs the container at the lowest weight, in one line (exit 125 before). */
    @Test
    void shouldRunClassIdleAtTheLowestWeightWithoutAnIdleParent() throws Exception {
        Path plain = docker.parent("schedpolicy-test-plain", false);
        Ran r = schedpolicy(args(List.of("run", "--container", "--policy", "idle", "--cgroup-parent", plain.toString(), "--verify"),
                detachedBusybox()));
        assertThat(r.status()).as(r.err()).isZero();
        String group = cpuGroupOf(docker.pidOf(r.out()));
        assertThat(group).isEqualTo(cgroups.cpuPathOf(plain) + "/" + r.out());
        assertThat(cgroups.limitsOf(cgroups.cpuDirOf(group)).weight()).as("read back from the kernel").hasValue(1);
        assertThat(r.err().lines().filter(l -> l.contains("applied the lowest cpu weight (1), not cpu-idle"))).hasSize(1);
        if (cgroups.cpuHierarchy().orElseThrow().version().name().equals("V1")) {
            assertThat(java.nio.file.Files.readString(cgroups.cpuDirOf(group).resolve("cpu.shares")).trim()).as("the lowest v1 has")
                    .isEqualTo("2");
        }
        assertThat(r.err()).doesNotContain("NOT as asked");
    }

    @Test
    void shouldSayWhatContainerNeeds() throws Exception {
        Ran ps = schedpolicy("run", "--container", "--cpu-idle", "--", "docker", "ps");
        assertThat(ps.status()).isEqualTo(2);
        assertThat(ps.err()).contains("--container needs a 'docker|podman run|create|build ...' command, not 'docker ps'");
        Ran raised = schedpolicy(args(List.of("run", "--container", "--cpu-weight", "10000"), detachedBusybox()));
        assertThat(raised.status()).as(raised.err()).isEqualTo(2);
        assertThat(raised.err()).contains("CPU weight 10000 raises priority above the default 100 and is not allowed here; use 1..100");
        assertThat(docker.ok("docker", "ps", "-aq", "--filter", "label=" + TestDocker.LABEL)).as("no container").isEmpty();
        Ran ioOnly = schedpolicy(args(List.of("run", "--container", "--io", "idle"), detachedBusybox()));
        assertThat(ioOnly.status()).isEqualTo(2);
        assertThat(ioOnly.err()).contains("give --cpu-idle, --cpu-weight, --cpu-quota, --cpus, or --policy idle / --nice");
    }
}
