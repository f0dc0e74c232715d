package dev.schedpolicy.engine.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedpolicy.engine.cgroup.CgroupSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/** The summary of this machine's real probe agrees with what the kernel and the cgroup filesystem say. */
@EnabledOnOs(OS.LINUX)
class AgentSummaryITest {

    @Test
    void shouldSummariseThisMachineAsTheKernelReportsIt() throws Exception {
        AgentSummary s = AgentSummary.probe(Optional.empty());
        assertThat(s.kernel()).isEqualTo(Files.readString(Path.of("/proc/sys/kernel/osrelease")).trim());
        assertThat(s.user()).isEqualTo(System.getProperty("user.name"));
        assertThat(s.layout()).isEqualTo(CgroupSystem.detect().mode().name().toLowerCase(java.util.Locale.ROOT));
        assertThat(s.capabilities()).extracting(c -> c.name()).contains("nice", "idle", "cpu-idle");
        boolean parentThere = Files.isDirectory(Path.of(s.idleParent().path()));
        assertThat(s.idleParent().exists()).isEqualTo(parentThere);
        assertThat(s.standsOut()).isEqualTo(s.fix() != null);
        if (s.standsOut() && !parentThere && s.fix().command() != null) {
            assertThat(s.fix().command()).startsWith("sudo schedpolicy setup");
        }
        assertThat(AgentSummary.fromJson(s.toJson())).isEqualTo(s);
    }
}
