package dev.schedpolicy.engine.launch;

import dev.schedpolicy.engine.linux.Kernel;
import dev.schedpolicy.engine.policy.Policy;
import dev.schedpolicy.engine.proc.ProcFs;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

/** Read-back against a fake /proc: what the kernel shows for a live task, and for one that is exiting. */
class ReadBackTest {
    private static final Policy POLICY = Policy.parse("batch+nice19+io-idle+quota50");
    private static final String GROUP = "/schedpolicy-1-0";

    @TempDir
    Path proc;

    private final Kernel kernel = mock(Kernel.class);

    @BeforeEach
    void ioIdle() {
        when(kernel.getIoPriority(anyInt())).thenReturn(3 << 13);
    }

    @Test
    void shouldReportALiveTaskInItsGroupAsMatching() throws IOException {
        task(42, 'S', 0x400000L, GROUP);

        AppliedPolicy applied = read(42).orElseThrow();

        assertThat(applied.matches()).as(applied.mismatches().toString()).isTrue();
        assertThat(applied.cpuCgroup()).isEqualTo(GROUP);
        assertThat(applied.describe()).isEqualTo("pid 42 (child): class batch, nice 19, io idle, cpu cgroup " + GROUP + ", cpus 0-1");
    }

    @Test
    void shouldStillReportAWrongGroupOfALiveTask() throws IOException {
        task(42, 'R', 0x400000L, "/");

        assertThat(read(42).orElseThrow().mismatches()).containsExactly("cpu cgroup is /, not " + GROUP);
    }

    /** cgroup v1 shows a zombie in "/"; that is the task leaving, not the policy failing. */
    @Test
    void shouldTreatAZombieAsGoneInsteadOfInTheRootGroup() throws IOException {
        task(42, 'Z', 0x40804cL, "/");

        assertThat(read(42)).isEmpty();
    }

    @Test
    void shouldTreatATaskThatStartedExitingAsGoneEvenWhileItStillRuns() throws IOException {
        task(42, 'R', 0x400004L, "/");

        assertThat(read(42)).isEmpty();
    }

    private java.util.Optional<AppliedPolicy> read(final long pid) {
        return new ReadBack(kernel, new ProcFs(proc)).read(pid, OptionalLong.empty(), "child", POLICY, GROUP);
    }

    private void task(final long pid, final char state, final long flags, final String cpuGroup) throws IOException {
        Path dir = Files.createDirectories(proc.resolve(Long.toString(pid)));
        StringBuilder stat = new StringBuilder(pid + " (true) " + state + " 1 " + pid + " " + pid + " 0 -1 " + flags);
        // fields 10..52; field 19 nice = 19, field 20 threads = 1, field 41 policy = 3 (batch)
        for (int field = 10; field <= 52; field++) {
            stat.append(' ').append(switch (field) {
                case 19 -> "19";
                case 20 -> "1";
                case 41 -> "3";
                default -> "0";
            });
        }
        Files.writeString(dir.resolve("stat"), stat + "\n");
        Files.writeString(dir.resolve("cgroup"), "2:cpuacct:/\n1:cpu:" + cpuGroup + "\n0::/\n");
        Files.writeString(dir.resolve("status"), "Name:\ttrue\nCpus_allowed_list:\t0-1\n");
    }
}
