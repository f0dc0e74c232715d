package dev.schedpolicy.engine.container;

import dev.schedpolicy.engine.policy.Policy;
import dev.schedpolicy.engine.launch.WarningBrief;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The placement's decisions on a cgroup v2 host (a fake tree: this machine's cpu controller is on v1). */
class ContainerPlacementTest {
    private static final List<String> INSIDE = List.of("docker", "run", "-t", "-d", "-u", "1000:1000", "-w", "/ws", "mini:1", "cat");

    @TempDir
    Path tmp;
    private FakeV2Host host;
    private Path cid;

    @BeforeEach
    void host() throws IOException {
        host = new FakeV2Host(tmp);
        cid = tmp.resolve("state/cid");
    }

    private ContainerPlacement.Plan plan(final CgroupDriver driver, final String policy, final Optional<Path> parent, final List<String> argv) {
        ContainerCommand command = ((ContainerCommand.Container) ContainerCommand.parse(argv)).command();
        return new ContainerPlacement(host.system(), (c, env) -> driver).plan(command, Policy.parse(policy), parent, cid, Map.of());
    }

    @Test
    void shouldPutACpuIdleContainerUnderTheMachineWideIdleParent() throws IOException {
        host.group("/schedpolicy.idle", "max 100000", 100, true);
        ContainerPlacement.Plan p = plan(CgroupDriver.CGROUPFS, "cpu-idle+quota150+cpus=0", Optional.empty(), INSIDE);
        assertThat(p.inserted()).containsExactly("--cgroup-parent=/schedpolicy.idle", "--cpus=1.5", "--cpuset-cpus=0", "--cidfile=" + cid);
        assertThat(p.cgroupParent()).hasValue("/schedpolicy.idle");
        assertThat(p.warnings()).isEmpty();
        assertThat(p.argv()).startsWith("docker", "run", "-t").endsWith("--cgroup-parent=/schedpolicy.idle", "--cpus=1.5",
                "--cpuset-cpus=0", "--cidfile=" + cid, "mini:1", "cat");
    }

    @Test
    void shouldNameTheIdleSliceForTheSystemdDriver() throws IOException {
        Path slice = host.group("/build-idle.slice", "max 100000", 100, true);
        ContainerPlacement.Plan p = plan(CgroupDriver.SYSTEMD, "cpu-idle", Optional.of(slice), INSIDE);
        assertThat(p.inserted()).containsExactly("--cgroup-parent=build-idle.slice", "--cidfile=" + cid);
    }

    @Test
    void shouldRefuseTheSystemdDriverAParentThatIsNoSlice() throws IOException {
        host.group("/schedpolicy.idle", "max 100000", 100, true);
        assertThatThrownBy(() -> plan(CgroupDriver.SYSTEMD, "cpu-idle", Optional.empty(), INSIDE))
                .isInstanceOf(ContainerRefusal.class).hasMessageContaining("systemd cgroup driver")
                .hasMessageContaining("is not one: configure a slice with CPUWeight=idle");
    }

    @Test
    void shouldSaySetupIsMissingWhenThereIsNoIdleParent() {
        assertThatThrownBy(() -> plan(CgroupDriver.CGROUPFS, "cpu-idle", Optional.empty(), INSIDE))
                .isInstanceOf(ContainerRefusal.class).hasMessageContaining("schedpolicy.idle, which does not exist")
                .hasMessageContaining("sudo schedpolicy setup");
    }

    @Test
    void shouldRefuseAParentThatIsNotIdleForCpuIdle() throws IOException {
        Path busy = host.group("/builds", "max 100000", 100, false);
        assertThatThrownBy(() -> plan(CgroupDriver.CGROUPFS, "cpu-idle", Optional.of(busy), INSIDE))
                .isInstanceOf(ContainerRefusal.class).hasMessageContaining("nor a group above it has cpu.idle 1");
    }

    @Test
    void shouldApplyCpuIdleForClassIdleUnderTheIdleParentAndSaySoInOneLine() throws IOException {
        // an agent default of 'idle' meets docker-workflow's inside: the build runs, its container under the idle parent
        host.group("/schedpolicy.idle", "max 100000", 100, true);
        ContainerPlacement.Plan p = plan(CgroupDriver.CGROUPFS, "idle", Optional.empty(), INSIDE);
        assertThat(p.inserted()).containsExactly("--cgroup-parent=/schedpolicy.idle", "--cidfile=" + cid);
        assertThat(p.policy().cpuIdle()).as("what the read-back verifies").isTrue();
        assertThat(p.warnings()).singleElement().asString().startsWith("for 'idle', applied its cgroup equivalent instead, cpu-idle"
                + " (the container's group under an idle parent): 'idle' acts per task and cannot reach the processes of a"
                + " container, which the docker daemon starts");
        assertThat(WarningBrief.of(p.warnings().get(0))).as("the short line a terminal shows says what was applied")
                .isEqualTo("for 'idle', applied its cgroup equivalent instead, cpu-idle (the container's group under an idle parent)");
    }

    /**
     * A global default of 'idle' on a machine where nobody ran setup: container builds run at the lowest weight with one
     * line saying so and pointing to setup for cpu-idle, instead of failing (they failed before, under fail and warn).
     */
    @Test
    void shouldStandInTheLowestWeightForClassIdleWithoutAnIdleParent() throws IOException {
        String shares = "--cpu-shares=2";
        ContainerPlacement.Plan p = plan(CgroupDriver.CGROUPFS, "idle", Optional.empty(), INSIDE);
        assertThat(p.inserted()).containsExactly(shares, "--cidfile=" + cid);
        assertThat(p.policy().cpuWeight()).as("what the read-back verifies").hasValue(1);
        assertThat(p.policy().cpuIdle()).isFalse();
        assertThat(p.notApplied()).isEmpty();
        assertThat(p.warnings()).singleElement().asString()
                .contains("'idle' acts per task and cannot reach the processes of a container, which the docker daemon starts")
                .contains("an administrator makes the machine-wide idle parent once with 'sudo schedpolicy setup'");
        assertThat(WarningBrief.of(p.warnings().get(0))).as("the one line a console shows").isEqualTo("for 'idle', applied the"
                + " lowest cpu weight (1), not cpu-idle, which needs 'sudo schedpolicy setup'");
        Path plain = host.group("/plain", "max 100000", 100, false);
        ContainerPlacement.Plan underNode = plan(CgroupDriver.CGROUPFS, "idle+nice19", Optional.of(plain), INSIDE);
        assertThat(underNode.inserted()).containsExactly("--cgroup-parent=/plain", shares, "--cidfile=" + cid);
        assertThat(underNode.warnings()).singleElement().asString()
                .contains("an administrator sets cpu.idle 1 on the node's cgroup parent");
    }

    @Test
    void shouldStillRefuseWhatNothingStandsInForAndAnExplicitCpuIdleWithoutAnIdleParent() {
        assertThatThrownBy(() -> plan(CgroupDriver.CGROUPFS, "idle+io-idle", Optional.empty(), INSIDE)).isInstanceOf(ContainerRefusal.class)
                .hasMessageContaining("io idle has no cgroup equivalent that is applied");
        assertThatThrownBy(() -> plan(CgroupDriver.CGROUPFS, "idle+cpu-idle", Optional.empty(), INSIDE)).isInstanceOf(ContainerRefusal.class)
                .hasMessageContaining("cpu-idle for a container needs").hasMessageContaining("sudo schedpolicy setup");
    }

    @Test
    void shouldApplyTheWeightWithTheSameShareForNiceAndBatch() {
        ContainerPlacement.Plan p = plan(CgroupDriver.CGROUPFS, "batch+nice19", Optional.empty(), INSIDE);
        assertThat(p.inserted()).containsExactly("--cpu-shares=" + dev.schedpolicy.engine.cgroup.CpuLimits.sharesForWeight(1),
                "--cidfile=" + cid);
        assertThat(p.policy().cpuWeight()).hasValue(1);
        assertThat(p.warnings()).first().asString().contains("cpu weight 1 (the share of nice 19 against nice 0)");
        assertThat(p.notApplied()).as("the weight stands in for the nice, not for the class").containsExactly(
                "class batch not applied: no cgroup equivalent reaches the container's processes");
        assertThat(plan(CgroupDriver.CGROUPFS, "nice10+weight5", Optional.empty(), INSIDE).inserted())
                .as("the policy's own weight covers the nice").contains("--cpu-shares=" + dev.schedpolicy.engine.cgroup.CpuLimits.sharesForWeight(5));
    }

    /** Issue 31 item 12: a 'batch' floor has no stand-in; the container runs at class normal, and that is said, not hidden. */
    @Test
    void shouldSayThatClassBatchIsNotAppliedToAContainer() {
        ContainerPlacement.Plan p = plan(CgroupDriver.CGROUPFS, "batch", Optional.empty(), INSIDE);
        assertThat(p.inserted()).as("not refused: the container runs").containsExactly("--cidfile=" + cid);
        assertThat(p.warnings()).singleElement().asString().isEqualTo("for 'batch', class batch is not applied: 'batch' acts per task"
                + " and cannot reach the processes of a container, which the docker daemon starts, and it has no cgroup equivalent"
                + " (the container runs at class normal)");
        assertThat(p.notApplied()).containsExactly("class batch not applied: no cgroup equivalent reaches the container's processes");
        assertThat(plan(CgroupDriver.CGROUPFS, "weight50", Optional.empty(), INSIDE).notApplied()).isEmpty();
    }

    @Test
    void shouldRefuseAnIoClassUnderFailAndRunWithoutItUnderWarn() {
        assertThatThrownBy(() -> plan(CgroupDriver.CGROUPFS, "nice19+io-idle", Optional.empty(), INSIDE))
                .isInstanceOf(ContainerRefusal.class).hasMessageContaining("io idle has no cgroup equivalent that is applied");
        ContainerPlacement.Plan p = plan(CgroupDriver.CGROUPFS, "nice19+io-idle+warn", Optional.empty(), INSIDE);
        assertThat(p.inserted()).contains("--cpu-shares=" + dev.schedpolicy.engine.cgroup.CpuLimits.sharesForWeight(1));
        assertThat(p.warnings()).hasSize(2);
        assertThat(p.notApplied()).as("run without it under warn: never called verified").containsExactly("io idle not applied (see the warning)");
    }

    @Test
    void shouldCarryWeightAsSharesAndRefuseAnOptionTheCommandSetsItself() {
        assertThat(plan(CgroupDriver.CGROUPFS, "weight50", Optional.empty(), INSIDE).inserted()).containsExactly("--cpu-shares=512",
                "--cidfile=" + cid);
        List<String> ownCpus = List.of("docker", "run", "--cpus", "2", "mini:1");
        assertThatThrownBy(() -> plan(CgroupDriver.CGROUPFS, "quota50", Optional.empty(), ownCpus))
                .hasMessageContaining("sets --cpus itself, and the policy's quota 50% would set --cpus too");
        ContainerPlacement.Plan warned = plan(CgroupDriver.CGROUPFS, "quota50+warn", Optional.empty(), ownCpus);
        assertThat(warned.argv()).as("the policy's comes last and wins").containsSubsequence("--cpus", "2", "--cpus=0.5", "mini:1");
        List<String> ownQuota = List.of("docker", "run", "--cpu-quota", "200000", "mini:1");
        assertThat(plan(CgroupDriver.CGROUPFS, "quota50+warn", Optional.empty(), ownQuota).inserted())
                .as("--cpus beside --cpu-quota is an error in docker").noneMatch(t -> t.startsWith("--cpus"));
    }

    @Test
    void shouldReadTheCommandsOwnCidFileInsteadOfAddingOne() {
        ContainerPlacement.Plan p = plan(CgroupDriver.CGROUPFS, "weight50", Optional.empty(),
                List.of("docker", "run", "--cidfile", "/tmp/mine.cid", "mini:1"));
        assertThat(p.inserted()).containsExactly("--cpu-shares=512");
        assertThat(p.cidFile()).isEqualTo(Path.of("/tmp/mine.cid"));
        assertThat(p.ownCidFile()).isFalse();
    }

    @Test
    void shouldWriteQuotaAsCpusPerPeriod() {
        assertThat(ContainerPlacement.cpusForQuota(50)).isEqualTo("0.5");
        assertThat(ContainerPlacement.cpusForQuota(100)).isEqualTo("1");
        assertThat(ContainerPlacement.cpusForQuota(33)).isEqualTo("0.33");
        assertThat(ContainerPlacement.cpusForQuota(250)).isEqualTo("2.5");
    }

    @Test
    void shouldPutThePoliciesCgroupParentLastSoTheCommandsOwnCannotTakeTheContainerOut() throws IOException {
        host.group("/schedpolicy.idle", "max 100000", 100, true);
        List<String> own = List.of("docker", "run", "-e", "TOKEN=s3cret", "--cgroup-parent=/", "mini:1", "cat");
        ContainerPlacement.Plan warned = plan(CgroupDriver.CGROUPFS, "cpu-idle+warn", Optional.empty(), own);
        List<String> argv = warned.argv();
        assertThat(argv.lastIndexOf("--cgroup-parent=/schedpolicy.idle")).as(String.join(" ", argv))
                .isGreaterThan(argv.indexOf("--cgroup-parent=/")).isLessThan(argv.indexOf("mini:1"));
        assertThat(warned.warnings()).singleElement().asString().contains("--cgroup-parent").contains("the policy's wins")
                .doesNotContain("s3cret");
        assertThatThrownBy(() -> plan(CgroupDriver.CGROUPFS, "cpu-idle", Optional.empty(), own)).isInstanceOf(ContainerRefusal.class)
                .hasMessageContaining("'docker run' sets --cgroup-parent itself").hasMessageNotContaining("s3cret");
    }

    @Test
    void shouldNeverPutTheCommandsArgumentsIntoARefusalOrWarning() throws IOException {
        List<String> secret = List.of("docker", "run", "-e", "TOKEN=s3cret", "--env", "PW=s3cret", "--cpus", "2", "mini:1", "s3cret");
        assertThatThrownBy(() -> plan(CgroupDriver.CGROUPFS, "quota50", Optional.empty(), secret)).isInstanceOf(ContainerRefusal.class)
                .hasMessageContaining("'docker run' sets --cpus itself").hasMessageNotContaining("s3cret");
        assertThat(plan(CgroupDriver.CGROUPFS, "quota50+warn", Optional.empty(), secret).warnings())
                .isNotEmpty().noneMatch(w -> w.contains("s3cret"));
    }

    @Test
    void shouldPlaceABuildByItsOwnOptionsWithoutACidFileAndNeverCallItReadBack() throws IOException {
        host.group("/schedpolicy.idle", "max 100000", 100, true);
        List<String> build = List.of("docker", "build", "-t", "x", ".");
        ContainerPlacement.Plan idle = plan(CgroupDriver.CGROUPFS, "cpu-idle+quota50", Optional.empty(), build);
        assertThat(idle.inserted()).containsExactly("--cgroup-parent=/schedpolicy.idle", "--cpu-period=100000", "--cpu-quota=50000");
        assertThat(idle.ownCidFile()).isFalse();
        assertThat(idle.argv()).endsWith(".", "--cgroup-parent=/schedpolicy.idle", "--cpu-period=100000", "--cpu-quota=50000");
        assertThat(ContainerPlacement.BUILD_NOT_READ_BACK).contains("BuildKit");
    }

    /**
     * buildah runs a podman build's RUN steps in the --cgroup-parent group itself and removes it when the build ends: a
     * podman build gets a group of its own under the chosen parent, named as ours, so the idle parent stays. A docker
     * build gets one only from a placement that removes it afterwards (the client wrappers).
     */
    @Test
    void shouldGiveABuildAGroupOfItsOwnUnderTheParent() throws IOException {
        host.group("/schedpolicy.idle", "max 100000", 100, true);
        ContainerPlacement.Plan podman = plan(CgroupDriver.CGROUPFS, "cpu-idle", Optional.empty(), List.of("podman", "build", "-t", "x", "."));
        assertThat(podman.cgroupParent()).hasValueSatisfying(g -> assertThat(g)
                .matches("/schedpolicy\\.idle/schedpolicy-" + ProcessHandle.current().pid() + "-[0-9a-f]{12}-[0-9]+"));
        assertThat(podman.inserted()).containsExactly("--cgroup-parent=" + podman.cgroupParent().get());
        assertThat(podman.buildGroup()).isEqualTo(podman.cgroupParent());
        assertThat(podman.buildTail(Map.of())).isEqualTo(ContainerPlacement.PODMAN_BUILD_GROUP);
        ContainerPlacement.Plan again = plan(CgroupDriver.CGROUPFS, "cpu-idle", Optional.empty(), List.of("podman", "build", "."));
        assertThat(again.cgroupParent()).as("each build its own").isNotEqualTo(podman.cgroupParent());

        ContainerPlacement.Plan docker = plan(CgroupDriver.CGROUPFS, "cpu-idle", Optional.empty(), List.of("docker", "build", "."));
        assertThat(docker.cgroupParent()).as("nobody would remove a docker build's own group").hasValue("/schedpolicy.idle");
        assertThat(docker.buildGroup()).isEmpty();
        assertThat(docker.buildTail(Map.of("DOCKER_BUILDKIT", "1"))).isEqualTo(UnplacedStarts.buildKitTail());
        assertThat(docker.buildTail(Map.of())).isEqualTo(ContainerPlacement.BUILD_NOT_READ_BACK);
        ContainerPlacement.Plan wrapped = new ContainerPlacement(host.system(), (c, env) -> CgroupDriver.CGROUPFS).withDockerBuildGroups()
                .plan(((ContainerCommand.Container) ContainerCommand.parse(List.of("docker", "build", "."))).command(),
                        Policy.parse("cpu-idle"), Optional.empty(), cid, Map.of());
        assertThat(wrapped.buildGroup()).hasValueSatisfying(g -> assertThat(g).startsWith("/schedpolicy.idle/schedpolicy-"));
        assertThat(wrapped.buildTail(Map.of())).isEqualTo(ContainerPlacement.DOCKER_BUILD_GROUP);
        assertThat(wrapped.buildTail(Map.of("DOCKER_BUILDKIT", "1"))).isEqualTo(UnplacedStarts.buildKitTail());
        ContainerPlacement.Plan run = plan(CgroupDriver.CGROUPFS, "cpu-idle", Optional.empty(), List.of("podman", "run", "mini:1"));
        assertThat(run.cgroupParent()).as("podman run makes PARENT/libpod-ID itself").hasValue("/schedpolicy.idle");
        assertThat(run.buildGroup()).isEmpty();

        Path slice = host.group("/build-idle.slice", "max 100000", 100, true);
        ContainerPlacement.Plan systemd = plan(CgroupDriver.SYSTEMD, "cpu-idle", Optional.of(slice), List.of("podman", "build", "."));
        assertThat(systemd.cgroupParent()).as("the systemd manager takes the slice itself").hasValue("build-idle.slice");
        assertThat(systemd.buildGroup()).isEmpty();
    }
}
