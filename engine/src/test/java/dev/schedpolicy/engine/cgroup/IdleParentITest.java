package dev.schedpolicy.engine.cgroup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/** The machine-wide idle parent on the real kernel, under a test name so a real one is never touched. */
@EnabledOnOs(OS.LINUX)
class IdleParentITest {
    private CgroupSystem system;
    private IdleParent parent;

    @BeforeEach
    void setUp() {
        system = CgroupSystem.detect();
        assumeThat(system.cpuHierarchy()).as("a cpu cgroup controller (CI: the v1 cpu hierarchy)").isPresent();
        Path top = system.cpuHierarchy().orElseThrow().dirOf("/");
        assumeThat(Files.isWritable(top)).as("root on the cpu hierarchy (CI runs as root)").isTrue();
        parent = IdleParent.at(system, top.resolve("schedpolicy-test-" + ProcessHandle.current().pid() + ".idle"));
    }

    @AfterEach
    void cleanUp() throws Exception {
        if (parent != null && Files.exists(parent.path())) {
            try (var children = Files.list(parent.path())) {
                for (Path c : children.filter(Files::isDirectory).toList()) {
                    Files.delete(c);
                }
            }
            parent.remove();
        }
    }

    @Test
    void shouldCreateAnIdleTopLevelGroupOnceAndSayWhatItFoundTheSecondTime() {
        assertThat(IdleParent.of(system).path()).isEqualTo(system.cpuHierarchy().orElseThrow().dirOf("/")
                .resolve("schedpolicy.idle"));
        assertThat(parent.setUp(Optional.empty())).containsExactly("created " + parent.path(), "set cpu.idle = 1");
        assertThat(system.files().read(parent.path().resolve("cpu.idle")).trim()).isEqualTo("1");
        assertThat(parent.setUp(Optional.empty())).containsExactly(parent.path() + " exists", "cpu.idle is 1");
        IdleParent.Status status = parent.status(0);
        assertThat(status.exists()).isTrue();
        assertThat(status.idle()).isTrue();
        assertThat(status.usable()).as(status.detail()).isTrue();
    }

    @Test
    void shouldHandTheGroupToAUser() throws Exception {
        parent.setUp(Optional.of("nobody"));
        assertThat(Files.getOwner(parent.path()).getName()).isEqualTo("nobody");
        assertThat(Files.getOwner(parent.path().resolve("cgroup.procs")).getName()).isEqualTo("nobody");
        assertThatThrownBy(() -> parent.setUp(Optional.of("no-such-user-x9"))).hasMessageContaining("unknown user 'no-such-user-x9'");
    }

    @Test
    void shouldRefuseToRemoveWhileInUseAndRemoveWhenEmpty() throws Exception {
        parent.setUp(Optional.empty());
        Path child = Files.createDirectory(parent.path().resolve("busy"));
        assertThatThrownBy(parent::remove).isInstanceOf(CgroupException.class).hasMessageContaining("is in use (1 groups");
        Files.delete(child);
        assertThat(parent.remove()).containsExactly("removed " + parent.path());
        assertThat(parent.path()).doesNotExist();
        assertThat(parent.remove()).containsExactly(parent.path() + " does not exist: nothing to remove");
        assertThat(parent.status(0).exists()).isFalse();
    }

    @Test
    void shouldFindTheCommonAncestorOfTwoGroups() {
        assertThat(IdleParent.commonAncestor(Path.of("/sys/fs/cgroup/system.slice/a.service"),
                Path.of("/sys/fs/cgroup/schedpolicy.idle"))).isEqualTo(Path.of("/sys/fs/cgroup"));
    }
}
