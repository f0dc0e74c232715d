package dev.schedpolicy.engine.launch;

import dev.schedpolicy.engine.KernelRelease;
import dev.schedpolicy.engine.cgroup.CgroupSystem;
import dev.schedpolicy.engine.policy.Policy;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Real cgroups (v1 here, v2 in the kernel lab): a launch under a quota lands in its own group, which is gone
 * afterwards. The child's own /proc/self/cgroup is the proof, parsed for whichever layout the kernel has:
 * "N:cpu:/g" or "N:cpu,cpuacct:/g" on v1, "0::/g" on v2.
 */
@EnabledOnOs(OS.LINUX)
@Tag("kernel")
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CgroupLaunchITest {
    @TempDir
    Path state;

    @Test
    void shouldStartChildInsideAQuotaGroupAndRemoveTheGroupAfterwards() throws Exception {
        LaunchConfig config = LaunchConfig.defaults().withStateDir(state);
        String groupPath;
        Path groupDir;
        ProcessBuilder pb = new ProcessBuilder("sh", "-c", "cat /proc/self/cgroup; i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done");
        try (PolicedProcess p = new PolicyThreadLauncher(config).start(pb, Policy.parse("quota25+batch"))) {
            String out = new String(p.process().getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            assertThat(p.process().waitFor()).isZero();
            groupPath = p.cgroupPath().orElseThrow();
            assertThat(groupPath).contains("schedpolicy-");
            assertThat(ReadBack.cpuCgroup(out.lines().toList())).isEqualTo(groupPath);
            assertThat(p.applied().cpuCgroup()).isEqualTo(groupPath);
            assertThat(p.cgroupUsage().orElseThrow().nrPeriods()).isPositive();
            groupDir = CgroupSystem.detect().cpuHierarchy().orElseThrow().dirOf(groupPath);
            assertThat(groupDir).isDirectory();
        }
        assertThat(Files.exists(groupDir)).isFalse();
    }

    @Test
    void shouldPlaceParkedChildInItsGroupBeforeRelease() throws Exception {
        LaunchConfig config = LaunchConfig.defaults().withStateDir(state);
        Process p;
        String groupPath;
        Path groupDir;
        try (Handshake h = ParkAndRelease.prepare(Policy.parse(KernelRelease.idleGroupPart() + "+nice5"), config)) {
            List<String> argv = new ArrayList<>(h.commandPrefix());
            argv.addAll(List.of("cat", "/proc/self/cgroup"));
            p = new ProcessBuilder(argv).start();
            try (PolicedLaunch launch = h.release(Duration.ofSeconds(10))) {
                groupPath = launch.cgroupPath().orElseThrow();
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
                assertThat(p.waitFor()).isZero();
                assertThat(ReadBack.cpuCgroup(out.lines().toList())).isEqualTo(groupPath);
                assertThat(launch.applied().nice()).isEqualTo(5);
                groupDir = CgroupSystem.detect().cpuHierarchy().orElseThrow().dirOf(groupPath);
                assertThat(groupDir).isDirectory();
            }
        }
        assertThat(Files.exists(groupDir)).isFalse();
    }
}
