package dev.schedpolicy.engine.container;

import dev.schedpolicy.engine.policy.Policy;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** Reading a container back on a cgroup v2 host (a fake tree), for the cgroupfs and the systemd driver's layouts. */
class ContainerReadBackTest {
    private static final String ID = "4f2a0c8e1b7d" + "0".repeat(52);

    @TempDir
    Path tmp;
    private FakeV2Host host;

    @BeforeEach
    void host() throws IOException {
        host = new FakeV2Host(tmp);
        host.group("/schedpolicy.idle", "max 100000", 100, true);
        host.process(90, 1, "/system.slice/containerd.service", "0-1");
    }

    @Test
    void shouldFindTheMainProcessAndTheIdleParentOfACgroupfsContainer() throws IOException {
        host.group("/schedpolicy.idle/" + ID, "50000 100000", 50, false);
        host.process(100, 90, "/schedpolicy.idle/" + ID, "0");
        host.process(105, 100, "/schedpolicy.idle/" + ID, "0");
        host.process(110, 90, "/schedpolicy.idle/" + ID, "0"); // a docker exec: also a child of the shim
        ContainerReadBack.State s = new ContainerReadBack(host.system(), host.procFs()).find(ID).orElseThrow();
        assertThat(s.pid()).isEqualTo(100);
        assertThat(s.pids()).containsExactly(100L, 105L, 110L);
        assertThat(s.cpuCgroup()).isEqualTo("/schedpolicy.idle/" + ID);
        assertThat(s.idleGroup()).hasValue("/schedpolicy.idle");
        assertThat(s.limits().quotaPercent()).hasValue(50);
        assertThat(s.describe()).isEqualTo("cpu cgroup /schedpolicy.idle/" + ID + ", idle through /schedpolicy.idle, quota 50%, weight 50, cpus 0");
        assertThat(ContainerReadBack.mismatches(s, Policy.parse("cpu-idle+quota50+cpus=0"))).isEmpty();
        assertThat(ContainerReadBack.mismatches(s, Policy.parse("quota25+weight60+cpus=1"))).satisfiesExactly(
                q -> assertThat(q).isEqualTo("quota 25% asked, the container's group has 50%"),
                w -> assertThat(w).startsWith("weight 60 asked, the container's group has 50"),
                c -> assertThat(c).isEqualTo("cpus 1 asked, the container's main process may run on 0"));
    }

    @Test
    void shouldFindASystemdScopeAndSayWhenNothingAboveItIsIdle() throws IOException {
        host.group("/build.slice", "max 100000", 100, false);
        host.group("/build.slice/docker-" + ID + ".scope", "max 100000", 100, false);
        host.process(200, 90, "/build.slice/docker-" + ID + ".scope", "0-1");
        ContainerReadBack.State s = new ContainerReadBack(host.system(), host.procFs()).find(ID).orElseThrow();
        assertThat(s.idleGroup()).isEmpty();
        assertThat(ContainerReadBack.mismatches(s, Policy.parse("cpu-idle")))
                .containsExactly("cpu-idle asked, but no group at or above /build.slice/docker-" + ID + ".scope has cpu.idle 1");
    }

    /**
     * The runtime's init joins the container's group before the runtime writes the group's limits (seen in CI: weight 100
     * read where 1 was set a moment later): the container runs once its own first process does, not before.
     */
    @Test
    void shouldNotTakeTheRuntimesInitForTheContainersFirstProcess() throws IOException {
        host.group("/schedpolicy.idle/" + ID, "max 100000", 100, false);
        host.process(300, 90, "/schedpolicy.idle/" + ID, "0-1", "runc:[2:INIT]");
        ContainerReadBack readBack = new ContainerReadBack(host.system(), host.procFs());
        assertThat(readBack.find(ID)).as("only the runtime's init so far").isEmpty();
        host.process(300, 90, "/schedpolicy.idle/" + ID, "0-1", "exe");
        assertThat(readBack.find(ID)).as("runc re-executed, before it names itself (seen in CI)").isEmpty();
        host.process(300, 90, "/schedpolicy.idle/" + ID, "0-1", "sh");
        java.nio.file.Files.delete(host.proc.resolve("300/status"));
        assertThat(readBack.find(ID)).as("it ended while we read (runc's parent and child end at once)").isEmpty();
        host.process(300, 90, "/schedpolicy.idle/" + ID, "0-1", "sh");
        assertThat(readBack.find(ID)).map(ContainerReadBack.State::pid).hasValue(300L);
    }

    @Test
    void shouldFindNothingForAContainerWithoutProcesses() {
        assertThat(new ContainerReadBack(host.system(), host.procFs()).find(ID)).isEmpty();
    }
}
