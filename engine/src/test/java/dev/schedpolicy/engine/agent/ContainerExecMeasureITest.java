package dev.schedpolicy.engine.agent;

import dev.schedpolicy.engine.cgroup.CgroupSystem;
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
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 31 item 10: the steps of docker-workflow's {@code inside} (each a {@code docker exec} into the container the
 * block started) are measured through the container's cgroup, like any launch, and each exec gets its own processes
 * only: a busy step's CPU is not charged to an idle one beside it in the same container, and a step's background
 * process, re-parented to the container's first process when the exec'd shell ends, is still the step's. Checked
 * against the kernel's own count for the whole container (its cpuacct or v2 cpu.stat usage).
 */
@EnabledOnOs(OS.LINUX)
class ContainerExecMeasureITest {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    /** About 2 to 6 s of one CPU in busybox sh (busy machine). */
    private static final String BUSY = "i=0; while [ $i -lt 2000000 ]; do i=$((i+1)); done";

    @TempDir
    Path state;
    @TempDir
    Path workspace;

    private TestDocker docker;
    private HandshakeRegistry registry;

    @BeforeEach
    void setUp() {
        docker = TestDocker.connect();
        registry = new HandshakeRegistry(LaunchConfig.defaults().withStateDir(state), Path.of("/proc"), Duration.ofHours(1));
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

    private PreparedLaunch prepare(final String block, final List<String> argv) {
        return registry.prepare(LaunchRequest.of(block, "weight50").onNode(null, AgentLimits.DEFAULT, null).pendingFor(TIMEOUT)
                .forCommand(argv, docker.env()));
    }

    private Process start(final PreparedLaunch prepared, final List<String> argv) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(prepared.command(argv)).redirectErrorStream(true);
        pb.environment().putAll(docker.env());
        Process p = pb.start();
        p.getOutputStream().close();
        return p;
    }

    /** docker-workflow's {@code inside}: a detached container running cat, started under the block's policy. */
    private String insideContainer() throws Exception {
        String ws = workspace.toString();
        List<String> run = List.of("docker", "run", "-t", "-d", "-u", "0:0", "--label", TestDocker.LABEL, "--network", "none",
                "-w", ws, "-v", ws + ":" + ws + ":rw,z", "--entrypoint", "cat", TestDocker.IMAGE);
        PreparedLaunch prepared = prepare("block-1", run);
        assertThat(registry.measure(prepared.id(), "inside's docker run", "job-a"))
                .as("a container start is not measured: its client is not the work").isNotEmpty();
        Process p = start(prepared, run);
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        registry.release(prepared.id(), TIMEOUT);
        return out;
    }

    /** The container's whole CPU in ns, as the kernel counts it for its group (exited tasks included). */
    private long containerCpu(final long mainPid) throws IOException {
        CgroupSystem cgroups = CgroupSystem.detect();
        boolean v2 = cgroups.cpuHierarchy().orElseThrow().version().name().equals("V2");
        for (String line : Files.readAllLines(Path.of("/proc/" + mainPid + "/cgroup"))) {
            String[] f = line.split(":", 3);
            if (v2 && line.startsWith("0::")) {
                String stat = Files.readString(cgroups.cpuDirOf(f[2]).resolve("cpu.stat"));
                return Long.parseLong(stat.lines().filter(l -> l.startsWith("usage_usec ")).findFirst().orElseThrow()
                        .substring(11).trim()) * 1000;
            }
            if (!v2 && List.of(f[1].split(",")).contains("cpuacct")) {
                Path mount = f[1].contains("cpu,") || f[1].equals("cpu,cpuacct") ? Path.of("/sys/fs/cgroup/cpu,cpuacct")
                        : Path.of("/sys/fs/cgroup/cpuacct");
                return Long.parseLong(Files.readString(mount.resolve(f[2].substring(1)).resolve("cpuacct.usage")).trim());
            }
        }
        throw new AssertionError("no cpu accounting line in /proc/" + mainPid + "/cgroup");
    }

    @Test
    void shouldMeasureEachExecOfTheInsideContainerByItsOwnProcesses() throws Exception {
        String id = insideContainer();
        long main = docker.pidOf(id);
        long cpuBefore = containerCpu(main);

        // the busy step's shell ends at once: its loop runs on as a child of the container's cat, as a durable task's does
        List<String> busy = List.of("docker", "exec", id, "sh", "-c", "(" + BUSY + ") >/dev/null 2>&1 & exit 0");
        List<String> idle = List.of("docker", "exec", id, "sh", "-c", "sleep 2");
        PreparedLaunch busyLaunch = prepare("block-2", busy);
        PreparedLaunch idleLaunch = prepare("block-2", idle);
        assertThat(busyLaunch.command(busy)).as("the exec carries its marker").contains("--env")
                .anyMatch(t -> t.startsWith("SCHEDPOLICY_EXEC="));
        assertThat(registry.measure(busyLaunch.id(), "sh 'busy'", "job-a")).as("measured").isEmpty();
        assertThat(registry.measure(idleLaunch.id(), "sh 'idle'", "job-a")).as("measured").isEmpty();
        Process busyClient = start(busyLaunch, busy);
        Process idleClient = start(idleLaunch, idle);
        registry.release(busyLaunch.id(), TIMEOUT);
        registry.release(idleLaunch.id(), TIMEOUT);
        assertThat(busyClient.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(idleClient.waitFor(60, TimeUnit.SECONDS)).isTrue();

        Map<String, MeasureRecord> records = registry.collectMeasures(List.of(busyLaunch.id(), idleLaunch.id()),
                Duration.ofSeconds(60), true).records().stream().collect(Collectors.toMap(MeasureRecord::id, Function.identity()));
        long cpuAfter = containerCpu(main);
        MeasureRecord b = records.get(busyLaunch.id());
        MeasureRecord i = records.get(idleLaunch.id());
        assertThat(b).as("busy exec measured: %s", records).isNotNull();
        assertThat(i).as("idle exec measured: %s", records).isNotNull();
        long kernel = cpuAfter - cpuBefore;
        assertThat(b.ended()).as(b.toString()).isTrue();
        assertThat(b.inContainer()).as(b.toString()).isTrue();
        assertThat(b.source()).startsWith("container " + id.substring(0, 12));
        assertThat(b.waitMeasured()).as(b.toString()).isTrue();
        // sampled: a task's CPU after its last sample is lost, and a cold sampler's first intervals stretch (MeasureBook)
        assertThat(b.cpuNanos()).as("the busy step's CPU against the container's whole (%d ns): %s", kernel, b)
                .isGreaterThan(kernel * 6 / 10).isLessThanOrEqualTo(kernel + 50_000_000L);
        assertThat(i.ended()).as(i.toString()).isTrue();
        assertThat(i.inContainer()).isTrue();
        assertThat(i.cpuNanos()).as("the idle step beside it: %s", i).isLessThan(b.cpuNanos() / 10);
        assertThat(i.wallNanos()).as("the idle step lasted its sleep: %s", i).isGreaterThan(1_500_000_000L);
        assertThat(b.notes()).anyMatch(n -> n.startsWith("the container's group used "));
    }

    @Test
    void shouldSayWhyAnExecWhoseProcessesNeverAppearedMeasuredNothing() throws Exception {
        String id = insideContainer();
        List<String> exec = List.of("docker", "exec", id, "true");
        PreparedLaunch prepared = prepare("block-2", exec);
        assertThat(registry.measure(prepared.id(), "sh 'true'", "job-a")).isEmpty();
        Process client = start(prepared, exec);
        registry.release(prepared.id(), TIMEOUT);
        assertThat(client.waitFor(60, TimeUnit.SECONDS)).isTrue();
        List<MeasureRecord> r = registry.collectMeasures(List.of(prepared.id()), Duration.ofSeconds(30), true).records();
        assertThat(r).hasSize(1);
        assertThat(r.get(0).cpuNanos()).as(r.get(0).toString()).isLessThan(100_000_000L);
        assertThat(r.get(0).ended()).as("over once its process could have appeared: %s", r.get(0)).isTrue();
    }
}
