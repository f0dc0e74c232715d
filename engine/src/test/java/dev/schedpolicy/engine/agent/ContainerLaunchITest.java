package dev.schedpolicy.engine.agent;

import dev.schedpolicy.engine.cgroup.CgroupSystem;
import dev.schedpolicy.engine.container.ContainerPlacement;
import dev.schedpolicy.engine.container.ContainerRefusal;
import dev.schedpolicy.engine.container.TestDocker;
import dev.schedpolicy.engine.launch.LaunchConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Real containers through the registry, as the plugin launches them: docker-workflow's {@code inside} issues its
 * {@code docker run} through the block's launcher and each body step as {@code docker exec CONTAINER env ... sh -c}.
 * What the kernel holds is read back here from /proc and the cgroup files, not from the engine's record.
 */
@EnabledOnOs(OS.LINUX)
class ContainerLaunchITest {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @TempDir
    Path state;
    @TempDir
    Path workspace;

    private TestDocker docker;
    private HandshakeRegistry registry;
    private CgroupSystem cgroups;

    @BeforeEach
    void setUp() {
        docker = TestDocker.connect();
        registry = new HandshakeRegistry(LaunchConfig.defaults().withStateDir(state), Path.of("/proc"), Duration.ofHours(1));
        cgroups = CgroupSystem.detect();
    }

    @AfterEach
    void tearDown() throws IOException {
        if (registry != null) {
            registry.close();
        }
        if (docker != null) {
            docker.close();
        }
    }

    /** The line DockerClient.run builds for {@code docker.image(IMAGE).inside}, plus our label and no network. */
    private List<String> insideRun() {
        String ws = workspace.toString();
        return List.of("docker", "run", "-t", "-d", "-u", "0:0", "--label", TestDocker.LABEL, "--network", "none", "-w", ws,
                "-v", ws + ":" + ws + ":rw,z", "-e", "BUILD_TAG=t-1", "--entrypoint", "cat", TestDocker.IMAGE);
    }

    private record Started(String stdout, LaunchRecord record, Process client) {
    }

    /** What the plugin does: prepare on the agent, start the rewritten line, release. */
    private Started launch(final String policy, final String block, final Optional<Path> parent, final List<String> argv,
            final boolean waitForExit) throws Exception {
        PreparedLaunch prepared = registry.prepare(LaunchRequest.of(block, policy)
                .onNode(null, AgentLimits.DEFAULT, parent.map(Object::toString).orElse(null)).pendingFor(TIMEOUT)
                .forCommand(argv, docker.env()));
        ProcessBuilder pb = new ProcessBuilder(prepared.command(argv)).redirectErrorStream(true);
        pb.environment().putAll(docker.env());
        Process p = pb.start();
        p.getOutputStream().close();
        if (!waitForExit) {
            return new Started("", registry.release(prepared.id(), TIMEOUT), p);
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("%s: %s", prepared.command(argv), out).isZero();
        return new Started(out, registry.release(prepared.id(), TIMEOUT), p);
    }

    /** The cpu controller's line of /proc/PID/cgroup: v1 "N:cpu,cpuacct:/path", v2 "0::/path". */
    private String cpuLine(final long pid) throws IOException {
        boolean v2 = cgroups.cpuHierarchy().orElseThrow().version().name().equals("V2");
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/cgroup"))) {
            String[] f = line.split(":", 3);
            if (v2 ? line.startsWith("0::") : List.of(f[1].split(",")).contains("cpu")) {
                return f[2];
            }
        }
        throw new AssertionError("no cpu line in /proc/" + pid + "/cgroup");
    }

    private static String status(final long pid, final String field) throws IOException {
        return Files.readAllLines(Path.of("/proc/" + pid + "/status")).stream().filter(l -> l.startsWith(field + ":"))
                .map(l -> l.substring(field.length() + 1).trim()).findFirst().orElseThrow();
    }

    /** A process in the container's group running {@code what}, found from the group's own process list. */
    private long processRunning(final Path group, final String what) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            for (String pid : Files.readAllLines(group.resolve("cgroup.procs"))) {
                Path cmdline = Path.of("/proc", pid, "cmdline");
                if (Files.exists(cmdline) && Files.readString(cmdline).replace('\0', ' ').contains(what)) {
                    return Long.parseLong(pid);
                }
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no process running '" + what + "' in " + group);
    }

    /**
     * A stopped step kills its processes, the docker client among them; a foreground container whose PID 1 ignores the
     * forwarded SIGTERM would run on. The agent kills it once its client is gone; a detached one (-d) is left alone.
     */
    @Test
    void shouldKillAForegroundContainerWhoseClientWasKilledAndLeaveADetachedOne() throws Exception {
        String loop = TestDocker.IMAGE + " sh -c 'while :; do :; done'";
        String script = "docker run -d --label " + TestDocker.LABEL + " --network none " + TestDocker.IMAGE + " sleep 60 >detached;"
                + " exec docker run --rm --label " + TestDocker.LABEL + " --network none " + loop;
        List<String> argv = List.of("sh", "-c", script);
        PreparedLaunch prepared = registry.prepare(LaunchRequest.of("b-fg", "weight10").pendingFor(TIMEOUT).forCommand(argv, docker.env()));
        ProcessBuilder pb = new ProcessBuilder(prepared.command(argv)).directory(workspace.toFile());
        pb.environment().putAll(docker.env());
        pb.environment().put("PATH", prepared.clientWrappers().orElseThrow() + ":" + System.getenv("PATH"));
        Process p = pb.start();
        p.getOutputStream().close();
        registry.release(prepared.id(), TIMEOUT);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (docker.ok("docker", "ps", "-q", "--filter", "label=" + TestDocker.LABEL).lines().count() < 2 && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertThat(docker.ok("docker", "ps", "-q", "--filter", "label=" + TestDocker.LABEL).lines()).as("both started").hasSize(2);
        p.destroyForcibly();
        p.waitFor();
        String detached = Files.readString(workspace.resolve("detached")).trim();
        deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (docker.ok("docker", "ps", "-q", "--filter", "label=" + TestDocker.LABEL).lines().count() > 1 && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertThat(docker.ok("docker", "ps", "-q", "--no-trunc", "--filter", "label=" + TestDocker.LABEL).lines())
                .as("the foreground container is gone within 10 s of its client, the detached one runs on").containsExactly(detached);
    }

    /**
     * Issue 33 item 1: a parked launch under a policy (durable-task's sh) finds docker and podman wrappers first on its
     * PATH; the container its script starts goes under the policy's placement, the wrapper says so in one line on the
     * step's own output, other client lines run as given, and an unreadable line is refused.
     */
    @Test
    void shouldPlaceTheContainerAScriptStartsThroughTheWrappersOnItsPath() throws Exception {
        Path plain = docker.parent("schedpolicy-test-plain", false);
        String script = String.join(" ", List.of("docker", "run", "-d", "--label", TestDocker.LABEL, "--network", "none",
                TestDocker.IMAGE, "sleep", "60")) + " && docker ps -q --filter label=" + TestDocker.LABEL + " | wc -l"
                + " && { docker run --frobnicate x " + TestDocker.IMAGE + " true; echo status $?; }";
        List<String> argv = List.of("sh", "-c", script);
        PreparedLaunch prepared = registry.prepare(LaunchRequest.of("b-wrap", "idle")
                .onNode(null, AgentLimits.DEFAULT, plain.toString()).pendingFor(TIMEOUT).forCommand(argv, docker.env()));
        assertThat(prepared.clientWrappers()).isPresent();
        String[] envs = prepared.environment(new String[] {"PATH+SCHEDPOLICY=/elsewhere", "A=1"});
        assertThat(envs).containsExactly("A=1", "PATH+SCHEDPOLICY=" + prepared.clientWrappers().get());
        ProcessBuilder pb = new ProcessBuilder(prepared.command(argv));
        pb.environment().putAll(docker.env());
        pb.environment().put("PATH", prepared.clientWrappers().get() + ":" + System.getenv("PATH")); // what EnvVars.override makes of it
        Process p = pb.start();
        p.getOutputStream().close();
        registry.release(prepared.id(), TIMEOUT);
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        List<String> lines = out.lines().toList();
        assertThat(lines).as(err).hasSize(3);
        String id = lines.get(0);
        String group = cpuLine(docker.pidOf(id));
        assertThat(group).as("under the node's parent, at the lowest weight: class idle's stand-in without an idle parent")
                .isEqualTo(cgroups.cpuPathOf(plain) + "/" + id);
        assertThat(cgroups.limitsOf(cgroups.cpuDirOf(group)).weight()).hasValue(1);
        assertThat(lines.get(1)).as("docker ps ran as given").isEqualTo("1");
        assertThat(lines.get(2)).isEqualTo("status 125");
        assertThat(err.lines().filter(l -> l.startsWith("[schedpolicy] 'docker run' placed under 'idle' with --cgroup-parent="
                + cgroups.cpuPathOf(plain) + " --cpu-shares=2"))).hasSize(1);
        assertThat(err).contains("schedpolicy: 'docker run' has option '--frobnicate'");
        assertThat(err.lines().filter(l -> l.startsWith("[schedpolicy] 'docker run' container " + id.substring(0, 12) + " verified: cpu cgroup "
                + cgroups.cpuPathOf(plain) + "/" + id))).as("the kernel's word, said by the wrapper's background subshell").hasSize(1);
        assertThat(registry.prepare(LaunchRequest.of("b-plain", "").forCommand(argv, docker.env())).clientWrappers())
                .as("nothing to place under the default policy").isEmpty();
    }

    /**
     * Issue 33 item 1: where the wrappers cannot place what a line starts (BuildKit's RUN steps, by buildx or by
     * DOCKER_BUILDKIT=1), the line runs as given, its exit status passes through, and the step's output says so once.
     */
    @Test
    void shouldRunABuildKitBuildAsGivenAndSayItsRunStepsAreNotPlaced() throws Exception {
        Path plain = docker.parent("schedpolicy-test-plain", false);
        String script = "docker buildx build -q - </dev/null; echo status $?; DOCKER_BUILDKIT=1 docker build -q - </dev/null;"
                + " echo status $?";
        Wrapped wrapped = runThroughWrappers("b-buildkit", plain, script, 60);
        String out = wrapped.out();
        String err = wrapped.err();

        ProcessBuilder unwrapped = new ProcessBuilder("sh", "-c", script);
        unwrapped.environment().putAll(docker.env());
        Process q = unwrapped.start();
        q.getOutputStream().close();
        String given = new String(q.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertThat(q.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(out.lines().filter(l -> l.startsWith("status "))).as(err)
                .isEqualTo(given.lines().filter(l -> l.startsWith("status ")).toList()).hasSize(2);
        assertThat(err.lines().filter(l -> l.startsWith("[schedpolicy] 'docker buildx build' NOT placed: BuildKit runs its RUN steps"
                + " itself"))).as(err).hasSize(1);
        assertThat(err.lines().filter(l -> l.startsWith("[schedpolicy] 'docker build' placed under 'idle' with --cgroup-parent="
                + cgroups.cpuPathOf(plain)) && l.endsWith("its RUN steps are NOT placed: DOCKER_BUILDKIT=1 chooses BuildKit, which"
                + " ignores --cgroup-parent (DOCKER_BUILDKIT=0 chooses the classic builder, which follows it)"))).as(err).hasSize(1);
        assertThat(err.lines().filter(l -> l.startsWith("[schedpolicy]"))).as("one line per client line, nothing more").hasSize(2);
    }

    /**
     * Issue 33 item 2: a docker build a script runs gets a group of its own under the placement, so its RUN step is told
     * from every other container there and read back in the wrapper's second line; the runtime makes that group in every
     * hierarchy and never removes it, so the agent does once the client has ended.
     */
    @Test
    void shouldReadADockerBuildsRunStepBackInTheBuildsOwnGroupAndRemoveTheGroupAfter() throws Exception {
        Path idle = docker.parent("schedpolicy-test-idle", true);
        Path context = Files.createDirectories(workspace.resolve("build-context"));
        Files.writeString(context.resolve("Dockerfile"), "FROM " + TestDocker.IMAGE + "\nRUN cat /proc/self/cgroup; sleep 2\n");
        Wrapped wrapped = runThroughWrappers("b-build", idle, "docker build --no-cache --network none " + context, 120);
        String out = wrapped.out();
        String err = wrapped.err();
        assertThat(wrapped.status()).as(out + err).isZero();

        String parent = cgroups.cpuPathOf(idle);
        String runGroup = out.lines().map(l -> l.split(":", 3)).filter(f -> f.length == 3 && List.of(f[1].split(",")).contains("cpu"))
                .map(f -> f[2]).findFirst().orElseThrow(() -> new AssertionError("no cpu line from the RUN step in: " + out));
        assertThat(runGroup).as("the RUN step's group, under the build's own").matches(java.util.regex.Pattern.quote(parent)
                + "/(schedpolicy-[0-9]+-[0-9a-f]{12}-[0-9]+)/[0-9a-f]{64}");
        String buildGroup = runGroup.substring(0, runGroup.lastIndexOf('/'));
        assertThat(err.lines().filter(l -> l.startsWith("[schedpolicy] 'docker build' placed under 'idle' with --cgroup-parent="
                + buildGroup) && l.endsWith(ContainerPlacement.DOCKER_BUILD_GROUP))).as(err).hasSize(1);
        assertThat(err.lines().filter(l -> l.startsWith("[schedpolicy] 'docker build' RUN step verified: cpu cgroup " + runGroup
                + ", idle through " + parent))).as("the kernel's word, said by the wrapper's background subshell: " + err).hasSize(1);

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (leftIn(buildGroup).size() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
        assertThat(leftIn(buildGroup)).as("the build's own group, in every hierarchy, once its client ended").isEmpty();
        assertThat(idle).isDirectory();
    }

    private record Wrapped(int status, String out, String err) {
    }

    /**
     * {@code script} as a block's parked launch under 'idle' below {@code parent}, its client wrappers first on its PATH
     * (what EnvVars.override makes of PATH+SCHEDPOLICY), released and waited for at most {@code seconds}.
     */
    private Wrapped runThroughWrappers(final String blockKey, final Path parent, final String script, final int seconds) throws Exception {
        List<String> argv = List.of("sh", "-c", script);
        PreparedLaunch prepared = registry.prepare(LaunchRequest.of(blockKey, "idle")
                .onNode(null, AgentLimits.DEFAULT, parent.toString()).pendingFor(TIMEOUT).forCommand(argv, docker.env()));
        ProcessBuilder pb = new ProcessBuilder(prepared.command(argv));
        pb.environment().putAll(docker.env());
        pb.environment().put("PATH", prepared.clientWrappers().orElseThrow() + ":" + System.getenv("PATH"));
        Process p = pb.start();
        p.getOutputStream().close();
        registry.release(prepared.id(), TIMEOUT);
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertThat(p.waitFor(seconds, TimeUnit.SECONDS)).isTrue();
        return new Wrapped(p.exitValue(), out, err);
    }

    private List<Path> leftIn(final String cgroupPath) {
        return cgroups.hierarchies().stream().map(h -> h.dirOf(cgroupPath)).filter(Files::isDirectory).toList();
    }

    @Test
    void shouldStartTheInsideContainerUnderTheIdleParentAndLetTheBodysExecJoinIt() throws Exception {
        Path idle = docker.parent("schedpolicy-test-idle", true);
        Started run = launch("cpu-idle+quota50+cpus=0", "block-1", Optional.of(idle), insideRun(), true);
        String id = run.stdout();

        assertThat(run.record().container()).hasValue(id);
        assertThat(run.record().verified()).as(run.record().describe()).isTrue();
        assertThat(run.record().describe()).contains("idle through " + cgroups.cpuPathOf(idle));
        long main = docker.pidOf(id);
        String group = cgroups.cpuPathOf(idle) + "/" + id;
        assertThat(cpuLine(main)).isEqualTo(group);
        assertThat(Files.readString(idle.resolve("cpu.idle")).trim()).isEqualTo("1");
        Path groupDir = cgroups.cpuDirOf(group);
        assertThat(cgroups.limitsOf(groupDir).quotaPercent()).hasValue(50);
        assertThat(status(main, "Cpus_allowed_list")).isEqualTo("0");

        // the body's sh step, as docker-workflow's decorator wraps it (here from an inner block)
        List<String> exec = List.of("docker", "exec", id, "env", "BUILD_TAG=t-1", "sh", "-c", "exec sleep 31");
        Started joined = launch("cpu-idle", "block-2", Optional.empty(), exec, false);
        long execd = processRunning(groupDir, "sleep 31");
        assertThat(cpuLine(execd)).isEqualTo(group);
        assertThat(status(execd, "Cpus_allowed_list")).isEqualTo("0");
        assertThat(joined.record().container()).hasValue(id);
        assertThat(joined.record().describe()).contains("exec into container started under 'quota50+cpu-idle+cpus=0'")
                .contains("idle through " + cgroups.cpuPathOf(idle));
        joined.client().destroy();
    }

    @Test
    void shouldPlaceACreatedContainerAndLetAnExecJoinItOnceStarted() throws Exception {
        Path idle = docker.parent("schedpolicy-test-idle", true);
        List<String> create = List.of("docker", "container", "create", "--label", TestDocker.LABEL, "--network", "none",
                "--name", "sp-created-" + ProcessHandle.current().pid(), TestDocker.IMAGE, "sleep", "60");
        Started created = launch("cpu-idle", "b", Optional.of(idle), create, true);
        assertThat(created.record().describe()).contains("created, not started, so nothing to read back yet");
        assertThat(created.record().container()).hasValue(created.stdout());
        docker.ok("docker", "start", created.stdout());

        String group = cgroups.cpuPathOf(idle) + "/" + created.stdout();
        assertThat(cpuLine(docker.pidOf(created.stdout()))).isEqualTo(group);
        // by the name it was created with, as a script would
        Started joined = launch("cpu-idle", "b", Optional.empty(),
                List.of("docker", "exec", "sp-created-" + ProcessHandle.current().pid(), "true"), true);
        assertThat(joined.record().verified()).as(joined.record().describe()).isTrue();
        assertThat(joined.record().describe()).contains("idle through " + cgroups.cpuPathOf(idle));
    }

    @Test
    void shouldRefuseAnExecIntoAContainerNoPolicedLaunchStarted() throws Exception {
        Path plain = docker.parent("schedpolicy-test-plain", false);
        String id = docker.ok("docker", "run", "-d", "--label", TestDocker.LABEL, "--network", "none",
                "--cgroup-parent=" + cgroups.cpuPathOf(plain), TestDocker.IMAGE, "sleep", "60");
        assertThatThrownBy(() -> registry.prepare(LaunchRequest.of("b", "cpu-idle").pendingFor(TIMEOUT)
                .forCommand(List.of("docker", "exec", id, "sh", "-c", "make"), docker.env())))
                .isInstanceOf(ContainerRefusal.class).hasMessageContaining("which no policed launch on this agent started")
                .hasMessageContaining("withSchedPolicy around docker.image(...).inside");
        assertThat(registry.pendingCount()).isZero();
    }

    /** Without an idle parent, class idle runs its container at the lowest weight (it was refused before). */
    @Test
    void shouldRunClassIdleAtTheLowestWeightWithoutAnIdleParent() throws Exception {
        Path plain = docker.parent("schedpolicy-test-plain", false);
        Started run = launch("idle", "b", Optional.of(plain), insideRun(), true);
        String group = cpuLine(docker.pidOf(run.stdout()));
        assertThat(group).isEqualTo(cgroups.cpuPathOf(plain) + "/" + run.stdout());
        assertThat(cgroups.limitsOf(cgroups.cpuDirOf(group)).weight()).as("read back from the kernel").hasValue(1);
        if (cgroups.cpuHierarchy().orElseThrow().version().name().equals("V1")) {
            assertThat(Files.readString(cgroups.cpuDirOf(group).resolve("cpu.shares")).trim()).as("the lowest v1 has").isEqualTo("2");
        }
        assertThat(run.record().warnings()).singleElement().asString().contains("applied the lowest cpu weight (1), not cpu-idle");
        assertThat(run.record().verified()).as(run.record().describe()).isTrue();
    }

    /** Issue 24 item 2: an agent default of 'idle' runs docker-workflow's inside under the idle parent, and its body's execs. */
    @Test
    void shouldRunClassIdleAsCpuIdleUnderTheIdleParentAndLetTheExecsJoin() throws Exception {
        Path idle = docker.parent("schedpolicy-test-idle", true);
        Started run = launch("idle", "b", Optional.of(idle), insideRun(), true);
        assertThat(cpuLine(docker.pidOf(run.stdout()))).isEqualTo(cgroups.cpuPathOf(idle) + "/" + run.stdout());
        assertThat(run.record().warnings()).singleElement().asString().contains("applied its cgroup equivalent instead, cpu-idle");
        assertThat(run.record().verified()).as(run.record().describe()).isTrue();
        PreparedLaunch exec = registry.prepare(LaunchRequest.of("b", "idle")
                .onNode(null, AgentLimits.DEFAULT, idle.toString()).pendingFor(TIMEOUT)
                .forCommand(List.of("docker", "exec", run.stdout(), "true"), docker.env()));
        List<String> line = exec.command(List.of("docker", "exec", run.stdout(), "true"));
        assertThat(line).as("an exec runs as given, with the marker its measurement finds its processes by").hasSize(6)
                .startsWith("docker", "exec", "--env").endsWith(run.stdout(), "true");
        assertThat(line.get(3)).matches("SCHEDPOLICY_EXEC=[0-9a-f]{32}");
        registry.abort(exec.id(), "not started in this test");
        registry.finishBlock("b");
        assertThat(stateEntries()).as("the block's cid files are removed when it ends").isEmpty();
    }

    @Test
    void shouldGiveAWeightAsCpuSharesWithAPlainParent() throws Exception {
        Path plain = docker.parent("schedpolicy-test-plain", false);
        Started run = launch("weight50", "b", Optional.of(plain), insideRun(), true);
        assertThat(run.record().describe()).contains("cpu cgroup " + cgroups.cpuPathOf(plain) + "/");
        String group = cpuLine(docker.pidOf(run.stdout()));
        assertThat(group).endsWith(run.stdout());
        assertThat(cgroups.limitsOf(cgroups.cpuDirOf(group)).weight()).hasValue(50);
        assertThat(run.record().verified()).as(run.record().describe()).isTrue();
    }

    /**
     * Issue 26: a build stopped while its docker run waits for the container (a slow client, a busy daemon): the wait
     * ends at once, the launch fails as aborted, and a client that comes afterwards cannot create the container (its
     * --cidfile directory is gone); nothing is left.
     */
    @Test
    void shouldEndTheWaitForTheContainerAtOnceWhenAbortedAndLetNoLateClientCreateIt() throws Exception {
        Path plain = docker.parent("schedpolicy-test-plain", false);
        List<String> argv = insideRun();
        PreparedLaunch prepared = registry.prepare(LaunchRequest.of("b-abort", "weight50")
                .onNode(null, AgentLimits.DEFAULT, plain.toString()).pendingFor(TIMEOUT).forCommand(argv, docker.env()));
        // the client reaches the daemon only 3 s after it was started
        List<String> slow = new ArrayList<>(List.of("sh", "-c", "sleep 3; exec \"$@\"", "slow-client"));
        slow.addAll(prepared.command(argv));
        ProcessBuilder pb = new ProcessBuilder(slow).redirectErrorStream(true);
        pb.environment().putAll(docker.env());
        Process client = pb.start();
        java.util.concurrent.CompletableFuture<LaunchRecord> release = java.util.concurrent.CompletableFuture.supplyAsync(
                () -> registry.release(prepared.id(), TIMEOUT));
        Thread.sleep(300);
        assertThat(release).isNotDone();
        registry.abort(prepared.id(), "the build was stopped");
        assertThatThrownBy(() -> release.get(2, TimeUnit.SECONDS)).as("the wait ends within 2 s of the abort")
                .hasCauseInstanceOf(AbortedLaunchException.class)
                .hasMessageContaining("the build was stopped").hasMessageContaining("no container was created");
        assertThat(stateEntries()).as("the cid directory is gone").isEmpty();

        // the client, not stopped, comes late: it fails before the daemon creates anything
        String out = new String(client.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(client.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(client.exitValue()).as(out).isNotZero();
        assertThat(docker.ok("docker", "ps", "-aq", "--filter", "label=" + TestDocker.LABEL)).as("no container").isEmpty();
        assertThat(registry.pendingCount()).isZero();
        assertThat(registry.containerCount()).isZero();
        registry.finishBlock("b-abort");
        assertThat(stateEntries()).isEmpty();
    }

    /** docker-workflow's inside line with the author's {@code extra} options (inside('--privileged')) before the image. */
    private List<String> insideRunWith(final String... extra) {
        List<String> argv = new ArrayList<>(insideRun());
        argv.addAll(argv.size() - 1, List.of(extra));
        return argv;
    }

    /**
     * Issue 31 item 4: under a node's floor, a container whose options let it leave its group (here --privileged, with
     * which a process writes its PID to the root cgroup) is refused in one line before any container exists, as the
     * plugin prepares it (the node's default given with the launch).
     */
    @Test
    void shouldRefuseAPrivilegedContainerUnderTheNodesFloorBeforeAnyContainerExists() throws Exception {
        Path idle = docker.parent("schedpolicy-test-idle", true);
        SchedPolicyAgent.useRegistry(registry);
        try {
            assertThatThrownBy(() -> SchedPolicyAgent.prepare(LaunchRequest.of("b-floor", "")
                    .onNode("idle", AgentLimits.DEFAULT, idle.toString()).pendingFor(TIMEOUT)
                    .forCommand(insideRunWith("--privileged", "--cgroupns=host"), docker.env())))
                    .isInstanceOf(ContainerRefusal.class)
                    .hasMessageContaining("'docker run' has --privileged")
                    .hasMessageContaining("leave the administrator's floor 'idle'")
                    .hasMessageContaining("leave it out of the container's options")
                    .hasMessageNotContaining("BUILD_TAG").matches(e -> !e.getMessage().contains("\n"), "one line");
            assertThat(docker.ok("docker", "ps", "-aq", "--filter", "label=" + TestDocker.LABEL)).isEmpty();
            assertThat(stateEntries()).isEmpty();
        } finally {
            SchedPolicyAgent.useRegistry(null);
            registry = null;
        }
    }

    /**
     * Issue 31 item 4: where the administrator allowed raising priorities, the same container runs, and its record
     * says the floor cannot hold instead of "verified".
     */
    @Test
    void shouldRunAPrivilegedContainerWhereRaisingIsAllowedAndSayTheFloorCannotHold() throws Exception {
        Path idle = docker.parent("schedpolicy-test-idle", true);
        AgentLimits raising = new AgentLimits(true, -20, true, 0);
        PreparedLaunch prepared = registry.prepare(LaunchRequest.of("b-raise", "idle")
                .onNode("idle", raising, idle.toString()).pendingFor(TIMEOUT)
                .forCommand(insideRunWith("--cap-add=SYS_NICE"), docker.env()));
        Process client = start(prepared.command(insideRunWith("--cap-add=SYS_NICE")));
        String id = new String(client.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertThat(client.waitFor(60, TimeUnit.SECONDS)).isTrue();
        LaunchRecord record = registry.release(prepared.id(), TIMEOUT);
        assertThat(record.container()).hasValue(id);
        assertThat(record.verified()).as(record.describe()).isFalse();
        assertThat(record.describe()).contains("NOT as asked (the administrator's floor 'idle' (raising priorities is allowed here)"
                + " cannot hold: 'docker run' has --cap-add SYS_NICE").doesNotMatch("container [0-9a-f]+ verified.*").contains("the rest verified");
        assertThat(status(docker.pidOf(id), "CapEff")).as("the container really has CAP_SYS_NICE (bit 23)")
                .matches(hex -> (Long.parseLong(hex, 16) & (1L << 23)) != 0);
    }

    /**
     * Issue 31 item 12: a 'batch' floor has no container stand-in: the container runs at class normal, and its record
     * says class batch was not applied instead of "verified".
     */
    @Test
    void shouldNeverCallABatchContainerVerified() throws Exception {
        Path plain = docker.parent("schedpolicy-test-plain", false);
        Started run = launch("batch", "b-batch", Optional.of(plain), insideRun(), true);
        assertThat(status(docker.pidOf(run.stdout()), "Name")).isNotEmpty();
        assertThat(schedPolicyOf(docker.pidOf(run.stdout()))).as("the kernel: the container's main process runs at class normal")
                .isEqualTo(0);
        assertThat(run.record().verified()).as(run.record().describe()).isFalse();
        assertThat(run.record().describe()).contains("NOT as asked (class batch not applied").doesNotMatch("container [0-9a-f]+ verified.*");
        assertThat(run.record().warnings()).anyMatch(w -> w.contains("class batch is not applied"));

        // the body's steps, exec'd into it under the same policy, run without it as well
        List<String> exec = List.of("docker", "exec", run.stdout(), "true");
        Started joined = launch("batch", "b-batch", Optional.of(plain), exec, true);
        assertThat(joined.record().verified()).as(joined.record().describe()).isFalse();
        assertThat(joined.record().describe()).contains("NOT as asked (class batch not applied").contains("exec into container");
    }

    /** Field 41 of /proc/PID/stat: the scheduling policy (0 normal, 3 batch, 5 idle). */
    private static int schedPolicyOf(final long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Integer.parseInt(f[41 - 3]);
    }

    private Process start(final List<String> argv) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(argv).redirectErrorStream(true);
        pb.environment().putAll(docker.env());
        Process p = pb.start();
        p.getOutputStream().close();
        return p;
    }

    private List<Path> stateEntries() throws IOException {
        List<Path> all = new ArrayList<>();
        try (Stream<Path> s = Files.list(state)) {
            s.filter(p -> p.getFileName().toString().startsWith("hs-")).forEach(all::add);
        }
        return all;
    }
}
