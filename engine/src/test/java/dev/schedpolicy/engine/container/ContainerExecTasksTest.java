package dev.schedpolicy.engine.container;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An exec's processes are those of the container's group that carry its marker: runc's init, which holds runc's
 * environment until it execs the step, is asked again; a process outside the group is never the exec's, whatever its
 * environment says.
 */
class ContainerExecTasksTest {
    private static final String ID = "0123456789ab" + "c".repeat(52);
    private static final String GROUP = "/docker/" + ID;

    @TempDir
    Path tmp;

    private FakeV2Host host;

    private void process(final long pid, final String path, final String comm, final String environ) throws IOException {
        host.process(pid, 1, path, "0-1", comm);
        Files.createDirectories(host.proc.resolve(pid + "/task/" + pid));
        FakeV2Host.put(host.proc.resolve(pid + "/environ"), environ);
    }

    private void groupHolds(final long... pids) throws IOException {
        StringBuilder procs = new StringBuilder();
        for (long pid : pids) {
            procs.append(pid).append('\n');
        }
        FakeV2Host.put(host.cgroup.resolve(GROUP.substring(1)).resolve("cgroup.procs"), procs.toString());
    }

    private ContainerExecTasks tasks(final Duration appear) {
        return new ContainerExecTasks(host.system(), host.procFs(), ID, GROUP, 10, "tok", appear);
    }

    @Test
    void shouldTakeTheGroupsProcessesWithTheMarkerAndAskRuncsInitAgain() throws IOException {
        host = new FakeV2Host(tmp);
        host.group(GROUP, "max 100000", 100, false);
        process(10, GROUP, "cat", "PATH=/bin\0");
        process(11, GROUP, "runc:[2:INIT]", "_LIBCONTAINER_INITPIPE=3\0");
        process(12, GROUP, "sh", "PATH=/bin\0SCHEDPOLICY_EXEC=tok\0");
        process(20, "/system.slice/jenkins-agent.service", "sh", "SCHEDPOLICY_EXEC=tok\0");
        groupHolds(10, 11, 12);
        ContainerExecTasks t = tasks(Duration.ofSeconds(10));

        assertThat(t.threads()).containsExactly(12L);
        assertThat(t.ended()).isFalse();

        // runc's init execs the step's command: now its environment is the exec's
        process(11, GROUP, "sh", "SCHEDPOLICY_EXEC=tok\0");
        assertThat(t.threads()).containsExactlyInAnyOrder(11L, 12L);

        groupHolds(10);
        assertThat(t.threads()).isEmpty();
        assertThat(t.ended()).as("had processes, has none left").isTrue();
        assertThat(t.notes()).noneMatch(n -> n.startsWith("no process of this exec"));
    }

    @Test
    void shouldEndAndSaySoWhenNoProcessOfTheExecAppeared() throws IOException {
        host = new FakeV2Host(tmp);
        host.group(GROUP, "max 100000", 100, false);
        process(10, GROUP, "cat", "PATH=/bin\0");
        groupHolds(10);
        ContainerExecTasks t = tasks(Duration.ZERO);

        assertThat(t.threads()).isEmpty();
        assertThat(t.ended()).isTrue();
        assertThat(t.notes()).anyMatch(n -> n.startsWith("no process of this exec was seen in the container's group"));
        assertThat(t.words()).startsWith(ContainerExecTasks.SOURCE_PREFIX + "0123456789ab: ");
    }
}
