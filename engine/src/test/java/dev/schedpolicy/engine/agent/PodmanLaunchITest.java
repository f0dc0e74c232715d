package dev.schedpolicy.engine.agent;

import dev.schedpolicy.engine.cgroup.CgroupSystem;
import dev.schedpolicy.engine.container.TestCgroupParents;
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
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.abort;

/**
 * The same placement with podman, which has no daemon: global options before {@code run} (a private store, the
 * cgroupfs manager) must be read past, repeated when the engine asks for the cgroup manager, and the container's
 * group is {@code PARENT/libpod-ID} with podman's conmon in {@code PARENT/conmon}. Skipped where podman is missing.
 */
@EnabledOnOs(OS.LINUX)
class PodmanLaunchITest {
    private static final String IMAGE = "schedpolicy-mini:1";
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @TempDir
    Path state;
    @TempDir
    Path storage;

    private final TestCgroupParents parents = new TestCgroupParents();
    private HandshakeRegistry registry;
    private List<String> podman;

    @BeforeEach
    void setUp() throws IOException {
        // vfs: a store without overlay mounts, so the temp dir can simply be deleted
        podman = List.of("podman", "--root", storage.resolve("root").toString(), "--runroot", storage.resolve("run").toString(),
                "--storage-driver=vfs", "--cgroup-manager=cgroupfs", "--events-backend=none");
        try {
            if (run(List.of("podman", "--version")).isEmpty()) {
                abort("podman --version failed");
            }
        } catch (IOException e) {
            abort("no podman on the PATH (apt-get install podman): " + e.getMessage());
        }
        Path rootfs = Files.createDirectories(storage.resolve("image/bin"));
        Files.copy(Path.of("/usr/bin/busybox"), rootfs.resolve("busybox"));
        for (String applet : List.of("sh", "sleep", "cat")) {
            Files.createSymbolicLink(rootfs.resolve(applet), Path.of("busybox"));
        }
        ok("sh", "-c", "tar -C '" + storage.resolve("image") + "' -c . | " + String.join(" ", podman) + " import - " + IMAGE);
        registry = new HandshakeRegistry(LaunchConfig.defaults().withStateDir(state), Path.of("/proc"), Duration.ofHours(1));
    }

    @AfterEach
    void tearDown() throws IOException {
        if (registry != null) {
            registry.close();
            List<String> rm = new ArrayList<>(podman);
            rm.addAll(List.of("rm", "-fa", "-t", "0"));
            run(rm);
        }
        parents.close();
    }

    private Optional<String> run(final List<String> argv) throws IOException {
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        try {
            p.waitFor(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return p.exitValue() == 0 ? Optional.of(out) : Optional.empty();
    }

    private String ok(final String... argv) throws IOException {
        return run(List.of(argv)).orElseThrow(() -> new IllegalStateException(String.join(" ", argv) + " failed"));
    }

    private List<String> podman(final String... args) {
        List<String> all = new ArrayList<>(podman);
        all.addAll(List.of(args));
        return all;
    }

    @Test
    void shouldPlaceAPodmanContainerUnderTheIdleParentAndLetAnExecJoinIt() throws Exception {
        CgroupSystem cgroups = CgroupSystem.detect();
        Path idle = parents.create("schedpolicy-test-idle", true);
        // nofile and nproc as this machine allows: podman's defaults exceed the hard limits here
        List<String> runLine = podman("run", "-d", "--ulimit", "nofile=1024:1024", "--ulimit", "nproc=1024:1024", "--network", "none",
                IMAGE, "sleep", "60");
        PreparedLaunch prepared = registry.prepare(LaunchRequest.of("b", "cpu-idle+cpus=0")
                .onNode(null, AgentLimits.DEFAULT, idle.toString()).pendingFor(TIMEOUT)
                .forCommand(runLine, Map.of("PATH", System.getenv("PATH"))));
        String id = ok(prepared.command(runLine).toArray(new String[0]));
        LaunchRecord record = registry.release(prepared.id(), TIMEOUT);
        assertThat(record.container()).hasValue(id);
        assertThat(record.verified()).as(record.describe()).isTrue();

        long pid = Long.parseLong(ok(podman("inspect", "-f", "{{.State.Pid}}", id).toArray(new String[0])));
        String group = cgroups.cpuPathOf(idle) + "/libpod-" + id;
        assertThat(cgroups.cpuCgroupOf(pid)).isEqualTo(group);
        assertThat(Files.readAllLines(Path.of("/proc/" + pid + "/status"))).contains("Cpus_allowed_list:\t0");

        List<String> exec = podman("exec", id, "sleep", "1");
        PreparedLaunch joined = registry.prepare(LaunchRequest.of("b", "cpu-idle").pendingFor(TIMEOUT)
                .forCommand(exec, Map.of()));
        assertThat(joined.command(exec)).as("as given, with its marker").hasSize(exec.size() + 2).containsSubsequence(exec);
        Process p = new ProcessBuilder(joined.command(exec)).start();
        LaunchRecord execRecord = registry.release(joined.id(), TIMEOUT);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(execRecord.describe()).contains("exec into container started under 'cpu-idle+cpus=0'")
                .contains("idle through " + cgroups.cpuPathOf(idle));
    }

    /**
     * Issue 33 items 1 and 2 with podman: a script's {@code podman build} goes through the wrapper on its PATH, its RUN step
     * runs in a group of the build's own under the idle parent, the wrapper's second line reads it back, and the idle parent
     * outlives the build. buildah runs RUN steps in the --cgroup-parent group itself and removes that group when the build
     * ends: given the idle parent, it removed the parent (and the next build made a plain group of its name).
     */
    @Test
    void shouldRunAPodmanBuildsRunStepInAGroupOfItsOwnUnderTheIdleParentAndKeepTheParent() throws Exception {
        CgroupSystem cgroups = CgroupSystem.detect();
        Path idle = parents.create("schedpolicy-test-idle", true);
        Path context = Files.createDirectories(storage.resolve("context"));
        Files.writeString(context.resolve("Dockerfile"), "FROM " + IMAGE + "\nRUN cat /proc/self/cgroup; sleep 2\n");
        String build = String.join(" ", podman("build", "--no-cache", "--network", "none", "--ulimit", "nofile=1024:1024", "--ulimit",
                "nproc=1024:1024", "-t", "schedpolicy-built:1", context.toString()));
        List<String> argv = List.of("sh", "-c", build);
        PreparedLaunch prepared = registry.prepare(LaunchRequest.of("b-build", "cpu-idle")
                .onNode(null, AgentLimits.DEFAULT, idle.toString()).pendingFor(TIMEOUT)
                .forCommand(argv, Map.of("PATH", System.getenv("PATH"))));
        ProcessBuilder pb = new ProcessBuilder(prepared.command(argv));
        pb.environment().put("PATH", prepared.clientWrappers().orElseThrow() + ":" + System.getenv("PATH"));
        Process p = pb.start();
        p.getOutputStream().close();
        registry.release(prepared.id(), TIMEOUT);
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(err).isZero();

        String parent = cgroups.cpuPathOf(idle);
        String runGroup = cpuGroupLine(out).orElseThrow(() -> new AssertionError("no cgroup line from the RUN step in: " + out));
        assertThat(runGroup).as("the RUN step's own cpu group").matches(java.util.regex.Pattern.quote(parent)
                + "/schedpolicy-[0-9]+-[0-9a-f]{12}-[0-9]+");
        assertThat(err.lines().filter(l -> l.startsWith("[schedpolicy] 'podman build' placed under 'cpu-idle' with --cgroup-parent="
                + runGroup + "; " + dev.schedpolicy.engine.container.ContainerPlacement.PODMAN_BUILD_GROUP))).as(err).hasSize(1);
        assertThat(err.lines().filter(l -> l.startsWith("[schedpolicy] 'podman build' RUN step verified: cpu cgroup " + runGroup
                + ", idle through " + parent))).as("the kernel's word, said by the wrapper's background subshell: " + err).hasSize(1);
        assertThat(idle).as("the idle parent outlives the build").isDirectory();
        assertThat(Files.readString(idle.resolve("cpu.idle")).trim()).isEqualTo("1");
        assertThat(cgroups.cpuDirOf(runGroup)).as("buildah removed the build's own group").doesNotExist();
    }

    /** The cpu group a RUN step printed from /proc/self/cgroup: the v1 line naming cpu, else the v2 one. */
    private static Optional<String> cpuGroupLine(final String out) {
        Optional<String> v2 = Optional.empty();
        for (String line : out.lines().toList()) {
            String[] parts = line.split(":", 3);
            if (parts.length < 3 || !parts[0].matches("[0-9]+")) {
                continue;
            }
            if (List.of(parts[1].split(",")).contains("cpu")) {
                return Optional.of(parts[2]);
            }
            if (parts[0].equals("0") && parts[1].isEmpty()) {
                v2 = Optional.of(parts[2]);
            }
        }
        return v2;
    }
}
