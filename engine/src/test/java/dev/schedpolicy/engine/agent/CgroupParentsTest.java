package dev.schedpolicy.engine.agent;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CgroupParentsTest {
    @Test
    void shouldTreatABlankParentAsTheAgentsOwnCgroup() {
        assertThat(CgroupParents.parse(" ")).isEmpty();
        assertThat(CgroupParents.parse(null)).isEmpty();
    }

    @Test
    void shouldAcceptAnAbsolutePath() {
        assertThat(CgroupParents.parse(" /sys/fs/cgroup/cpu/schedpolicy/ ")).contains(Path.of("/sys/fs/cgroup/cpu/schedpolicy"));
    }

    @Test
    void shouldRefuseRelativeOrClimbingPathsSayingWhatIsAllowed() {
        assertThatThrownBy(() -> CgroupParents.parse("schedpolicy")).hasMessageContaining("must be an absolute directory")
                .hasMessageContaining("/sys/fs/cgroup/cpu/schedpolicy");
        assertThatThrownBy(() -> CgroupParents.parse("/sys/fs/cgroup/cpu/../../etc")).hasMessageContaining("not '/sys/fs/cgroup/cpu/../../etc'");
    }
}
