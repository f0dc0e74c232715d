package dev.schedpolicy.engine.measure;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The layout decides the accounting group; a fake /proc and cgroupfs in a temp dir stand for each layout. */
class AccountingGroupsTest {
    @TempDir
    Path root;

    private AccountingGroups layout(final String mountinfo, final String selfCgroup) throws Exception {
        Path self = Files.createDirectories(root.resolve("proc/self"));
        Files.writeString(self.resolve("mountinfo"), mountinfo);
        Files.writeString(self.resolve("cgroup"), selfCgroup);
        return new AccountingGroups(root.resolve("proc"), root.resolve("fs"));
    }

    private Path dir(final String path, final String subtreeControl) throws Exception {
        Path d = Files.createDirectories(root.resolve("fs" + path));
        Files.writeString(d.resolve("cgroup.subtree_control"), subtreeControl);
        return d;
    }

    private static final String V2 = "41 31 0:38 / /sys/fs/cgroup rw,relatime - cgroup2 cgroup2 rw\n";

    @Test
    void shouldUseAControllerLessChildOfTheOwnV2Group() throws Exception {
        Path home = dir("/sys/fs/cgroup/system.slice/jenkins.service", "\n");
        AccountingGroups.Choice c = layout(V2, "0::/system.slice/jenkins.service\n").create();
        assertThat(c.group()).isPresent();
        assertThat(c.group().get().kind()).isEqualTo(AccountingGroup.Kind.V2);
        assertThat(c.group().get().dir().getParent()).isEqualTo(home);
    }

    @Test
    void shouldRefuseAV2GroupWhoseParentEnablesCpuForItsChildren() throws Exception {
        dir("/sys/fs/cgroup/ci", "cpu memory\n");
        AccountingGroups.Choice c = layout(V2, "0::/ci\n").create();
        assertThat(c.group()).isEmpty();
        assertThat(c.reason()).contains("enables 'cpu memory' for its children");
    }

    @Test
    void shouldUseCpuacctOnlyWhenItIsMountedApartFromCpu() throws Exception {
        dir("/sys/fs/cgroup/cpuacct/agent", "");
        String apart = "33 31 0:30 / /sys/fs/cgroup/cpuacct rw - cgroup cgroup rw,cpuacct\n";
        AccountingGroups.Choice c = layout(apart, "2:cpuacct:/agent\n").create();
        assertThat(c.group()).isPresent();
        assertThat(c.group().get().kind()).isEqualTo(AccountingGroup.Kind.V1_CPUACCT);

        String together = "33 31 0:30 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n";
        AccountingGroups.Choice none = layout(together, "2:cpu,cpuacct:/agent\n").create();
        assertThat(none.group()).isEmpty();
        assertThat(none.reason()).contains("cpuacct is mounted together with cpu");
    }
}
