package dev.schedpolicy.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schedpolicy.engine.cgroup.CgroupSystem;
import dev.schedpolicy.engine.cgroup.CgroupVersion;
import dev.schedpolicy.engine.launch.Handshake;
import dev.schedpolicy.engine.launch.LaunchConfig;
import dev.schedpolicy.engine.launch.ParkAndRelease;
import dev.schedpolicy.engine.launch.PolicedLaunch;
import dev.schedpolicy.engine.policy.Policy;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * schedpolicy as an unprivileged user (issue 9 part 1 and issue 11 items 4, 5, 6, 16): lowering works, nothing
 * raises, cgroup controls explain delegation and work in a delegated subtree, the probe tells this user the
 * truth, and neither this user nor another can read, replace, race or block the other's launch state.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class UnprivilegedUserITest {
    private static final int NOBODY = 65534;
    private static SecondUser user;

    @BeforeAll
    static void createUser() throws Exception {
        user = SecondUser.create();
    }

    @AfterAll
    static void removeCopies() {
        if (user != null) {
            user.close();
        }
    }

    @Test
    void shouldLowerPriority() {
        CliRunner.Result r = user.runner().run("run", "--policy", "batch+nice19", "--io", "idle", "--verify", "--", "true");

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.err()).contains("class batch, nice 19, io idle");
    }

    @ParameterizedTest
    @ValueSource(strings = {"--nice|-1", "--policy|fifo:50", "--policy|rr", "--io|be:0", "--io|rt:0", "--policy|nice-5"})
    void shouldRefuseEveryRaise(final String option) {
        String[] o = option.split("\\|");
        CliRunner.Result r = user.runner().run("run", o[0], o[1], "--", "true");

        assertThat(r.exitCode()).as(r.err()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("not allowed here");
    }

    @Test
    void shouldRefuseAllowRaise() {
        CliRunner.Result r = user.runner().run("run", "--allow-raise", "--nice", "0", "--", "true");

        assertThat(r.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("--allow-raise is for root only");
    }

    @ParameterizedTest(name = "{0} schedpolicy {1} -> {2}")
    @MethodSource("dev.schedpolicy.cli.RelativePriorityMatrix#cases")
    void shouldNeverGiveTheCommandMoreThanItsCaller(final String caller, final String options, final int exitCode, final String text) {
        RelativePriorityMatrix.check(user.runner(), caller, options, exitCode, text);
    }

    @Test
    void shouldExplainDelegationForCgroupControls() {
        assumeTrue(CgroupSystem.detect().cpuHierarchy().isPresent(), "no cpu cgroup controller is mounted here");
        CliRunner.Result r = user.runner().run("run", "--cpu-quota", "50", "--", "true");

        assertThat(r.exitCode()).as(r.err()).isEqualTo(ExitCodes.POLICY_NOT_APPLIED);
        assertThat(r.err()).contains("delegate a cgroup").contains("Delegate=yes");
    }

    @Test
    void shouldRunInADelegatedSubtree() throws Exception {
        CgroupSystem system = CgroupSystem.detect();
        assumeTrue(system.cpuHierarchy().map(h -> h.version() == CgroupVersion.V1).orElse(false),
                "on cgroup v2 the user's own processes must start inside the delegated subtree (systemd Delegate=yes), which"
                        + " a test cannot arrange; this machine's cpu controller is on v1");
        Path delegated = system.defaultParent(Optional.empty()).resolve("schedpolicy-ci-" + ProcessHandle.current().pid());
        Files.createDirectory(delegated);
        try {
            for (Path p : List.of(delegated, delegated.resolve("tasks"), delegated.resolve("cgroup.procs"))) {
                SecondUser.chown(p, user.uid(), user.gid());
            }
            CliRunner.Result r = user.runner().run("run", "--cpu-quota", "50", "--cgroup-parent", delegated.toString(), "--verify", "--",
                    "true");

            assertThat(r.exitCode()).as(r.err()).isZero();
            assertThat(r.err()).contains("cpu cgroup /" + delegated.getFileName() + "/schedpolicy-");
        } finally {
            Files.delete(delegated);
        }
    }

    @Test
    void shouldMakeProbeAnswerWhatRunDoesForThisUser() {
        CliRunner.Result r = CliRunner.exec(user.runner().main(ProbeRunAgreement.class.getName(),
                ProbeRunAgreement.POLICIES.toArray(String[]::new)));

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out().lines().toList()).hasSize(ProbeRunAgreement.POLICIES.size())
                .allSatisfy(l -> assertThat(ProbeRunAgreement.agrees(l)).as(l).isTrue());
        assertThat(r.out()).contains("fifo:50 probe=125 run=2", "nice-5 probe=125 run=2", "io-be0 probe=125 run=2", "idle probe=0 run=0");
    }

    @Test
    void shouldReportTheCgroupParentAsAPathOrNullInJson() throws Exception {
        CliRunner.Result r = user.runner().run("probe", "--json");

        assertThat(r.exitCode()).as(r.err()).isZero();
        JsonNode report = new ObjectMapper().readTree(r.out());
        JsonNode parent = report.get("cgroupParent");
        assertThat(parent.isNull() || parent.asText().startsWith("/") && !parent.asText().contains(" ")).as(parent.toString()).isTrue();
        assertThat(report.get("euid").asInt()).isEqualTo(user.uid());
    }

    /** Item 6: another user pre-created this user's predictable state directory in the shared /tmp. */
    @Test
    void shouldNotBeBlockedByAStateDirectoryAnotherUserPreCreated() throws Exception {
        Path tmp = sharedTmp("tmp-a");
        Path squatted = Files.createDirectory(tmp.resolve("schedpolicy-" + user.uid()));
        SecondUser.chown(squatted, NOBODY, NOBODY);

        CliRunner.Result r = CliRunner.exec(user.runner().withJvmArgs("-Djava.io.tmpdir=" + tmp)
                .main(ParkedLaunchMain.class.getName(), "batch+nice10", "sh", "-c", "echo parked-ok"));

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo("parked-ok\n");
        assertThat(r.err()).contains("state directory: " + user.home().resolve(".cache/schedpolicy"), "class batch, nice 10");
        assertThat(Files.getAttribute(squatted, "unix:uid", LinkOption.NOFOLLOW_LINKS)).isEqualTo(NOBODY);
        assertThat(squatted.toFile().list()).isEmpty();
    }

    /** This user plants a symlink where root's state directory would go: root's launch goes elsewhere, untouched. */
    @Test
    void shouldNotFollowAStateDirectorySymlinkPlantedByThisUser() throws Exception {
        Path tmp = sharedTmp("tmp-b");
        Path bait = user.home().resolve("bait");
        assertThat(user.shell("mkdir " + bait + " && ln -s " + bait + " " + tmp.resolve("schedpolicy-0")).exitCode()).isZero();
        Path rootHome = Files.createDirectory(user.scratch("root-home").resolve("h"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));

        CliRunner.Result r = CliRunner.exec(CliRunner.local().behind("env", "-u", "XDG_RUNTIME_DIR", "HOME=" + rootHome)
                .withJvmArgs("-Djava.io.tmpdir=" + tmp).main(ParkedLaunchMain.class.getName(), "idle", "sh", "-c", "echo parked-ok"));

        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.err()).contains("state directory: " + rootHome.resolve(".cache/schedpolicy"));
        assertThat(Files.isSymbolicLink(tmp.resolve("schedpolicy-0"))).isTrue();
        assertThat(bait.toFile().list()).isEmpty();
    }

    /** Root's parked launch, attacked by this user while it waits: nothing can be read, replaced, swapped or added. */
    @Test
    void shouldKeepAnotherUsersHandshakeOutOfReach() throws Exception {
        Path state = sharedTmp("tmp-c").resolve("schedpolicy-0");
        try (Handshake h = ParkAndRelease.prepare(Policy.parse("batch+nice7"), LaunchConfig.defaults().withStateDir(state))) {
            String shim = h.commandPrefix().get(1);
            String dir = h.commandPrefix().get(2);
            List<String> attacks = List.of("ls " + state, "cat " + dir + "/pid", "echo 1 > " + dir + "/pid", "echo go > " + dir + "/go",
                    "cat " + shim, "echo 'echo owned' > " + shim, "ln -sf /bin/true " + shim, "mv " + dir + " " + dir + ".x",
                    "mkfifo " + dir + "/pid2", "ln -s /tmp " + state + "/hs-1-1", "rm -rf " + state);
            List<String> succeeded = new ArrayList<>();
            for (String attack : attacks) {
                if (user.shell(attack).exitCode() == 0) {
                    succeeded.add(attack);
                }
            }
            assertThat(succeeded).as("attacks that worked").isEmpty();

            List<String> argv = new ArrayList<>(h.commandPrefix());
            argv.addAll(List.of("cat", "/proc/self/stat"));
            Process p = new ProcessBuilder(argv).start();
            try (PolicedLaunch launch = h.release(Duration.ofSeconds(20))) {
                String stat = CliRunner.read(p.getInputStream());
                assertThat(p.waitFor()).isZero();
                assertThat(stat).startsWith(launch.pid() + " (cat)");
                assertThat(launch.applied().describe()).contains("class batch, nice 7");
            }
        }
    }

    private static Path sharedTmp(final String name) throws Exception {
        Path tmp = user.scratch(name);
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxrwxrwx"));
        assertThat(new ProcessBuilder("chmod", "+t", tmp.toString()).start().waitFor()).isZero();
        return tmp;
    }
}
