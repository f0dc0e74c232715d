package dev.schedpolicy.engine.agent;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class GroupOccupancyTest {
    @TempDir
    Path proc;

    private void process(final String pid, final String cgroup) throws Exception {
        Path dir = Files.createDirectories(proc.resolve(pid));
        Files.writeString(dir.resolve("cgroup"), cgroup);
    }

    @Test
    void shouldFindAProcessInAV1CpuGroupOfAHybridMachine() throws Exception {
        process("100", "12:cpu,cpuacct:/schedpolicy/hs-1\n0::/user.slice\n");
        process("self", "ignored");
        GroupOccupancy o = new GroupOccupancy(proc);
        assertThat(o.occupied("/schedpolicy/hs-1")).isTrue();
        assertThat(o.occupied("/schedpolicy/hs-2")).isFalse();
        assertThat(o.occupied("/user.slice")).isTrue();
    }

    @Test
    void shouldIgnoreOtherV1Controllers() throws Exception {
        process("100", "5:memory:/schedpolicy/hs-1\n12:cpu,cpuacct:/\n");
        assertThat(new GroupOccupancy(proc).occupied("/schedpolicy/hs-1")).isFalse();
    }

    @Test
    void shouldFindAProcessInAV2Group() throws Exception {
        process("7", "0::/system.slice/jenkins.service/schedpolicy-hs-3\n");
        assertThat(new GroupOccupancy(proc).occupied("/system.slice/jenkins.service/schedpolicy-hs-3")).isTrue();
    }

    @Test
    void shouldCountAnEmptyProcAsUnoccupiedAndAMissingOneAsOccupied() {
        assertThat(new GroupOccupancy(proc).occupied("/x")).isFalse();
        assertThat(new GroupOccupancy(proc.resolve("missing")).occupied("/x")).isTrue();
    }
}
