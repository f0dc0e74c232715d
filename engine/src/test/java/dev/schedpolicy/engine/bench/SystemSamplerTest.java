package dev.schedpolicy.engine.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SystemSamplerTest {
    private static final String STAT = "4242 (java (x) y) S 1 4242 4242 0 -1 4194304 100 0 0 0 "
            + "50 7 30 2 20 0 3 0 1000 0 0" // utime 50 stime 7 cutime 30 cstime 2 (ticks)
            + " 0".repeat(29); // fields 25..52, as every kernel since 3.5 prints them

    @Test
    void shouldCountEveryLiveThreadExactlyPlusTheReapedChildren(@TempDir final Path proc) throws Exception {
        Path pid = proc.resolve("4242");
        for (String tid : new String[] {"4242", "4250"}) {
            Files.createDirectories(pid.resolve("task").resolve(tid));
        }
        Files.writeString(pid.resolve("task/4242/schedstat"), "1000000 5 7\n");
        Files.writeString(pid.resolve("task/4250/schedstat"), "2500000 9 3\n");
        Files.writeString(pid.resolve("stat"), STAT + "\n");

        // 3.5 ms of live threads (schedstat, ns) + (30 + 2) ticks of reaped children at 10 ms each
        assertThat(new SystemSampler(new dev.schedpolicy.engine.proc.ProcFs(proc)).treeCpuNs(4242)).isEqualTo(3_500_000L + 320_000_000L);
    }

    @Test
    void shouldSplitStatLinesAtTheLastParenthesis() {
        assertThat(SystemSampler.reapedChildrenNs(STAT)).isEqualTo(320_000_000L);
        assertThat(SystemSampler.cpuNsFromStatLine(STAT)).isEqualTo((50 + 7 + 30 + 2) * 10_000_000L);
    }

    @Test
    void shouldCountNothingForAProcessThatIsGone(@TempDir final Path proc) {
        assertThat(new SystemSampler(new dev.schedpolicy.engine.proc.ProcFs(proc)).treeCpuNs(4242)).isZero();
    }

    @Test
    void shouldKnowItsOwnCpuTime() {
        long a = SystemSampler.selfCpuNs();
        long x = 0;
        for (int i = 0; i < 50_000_000; i++) {
            x += i ^ (x << 1);
        }
        assertThat(x).isNotZero();
        assertThat(SystemSampler.selfCpuNs()).isGreaterThanOrEqualTo(a).isPositive();
    }
}
