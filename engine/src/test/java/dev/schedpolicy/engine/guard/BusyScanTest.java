package dev.schedpolicy.engine.guard;

import dev.schedpolicy.engine.proc.ProcFs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Who is busy, read from a /proc tree of the test's own. */
class BusyScanTest {
    /** A process in {@code state} with {@code ticks} of user time. */
    private static void process(final Path root, final long pid, final char state, final long ticks) throws IOException {
        StringBuilder stat = new StringBuilder(pid + " (cc1plus) " + state + " 1");
        for (int field = 5; field <= 52; field++) {
            stat.append(field == 14 ? " " + ticks : " 0");
        }
        Files.createDirectories(root.resolve(Long.toString(pid)));
        Files.writeString(root.resolve(pid + "/stat"), stat + "\n");
    }

    @Test
    void shouldCountAProcessRunnableAtBothScansOfAWindowTooShortForItsTicks(@TempDir final Path root) throws Exception {
        // a hog sharing its CPU with two others: 20 ms later it may show no new tick, but it is runnable both times
        process(root, 10, 'R', 500);
        process(root, 11, 'S', 500);
        BusyScan scan = new BusyScan(new ProcFs(root), 0.05);
        assertThat(scan.scan(List.of(10L, 11L))).isEmpty();
        Thread.sleep(20);
        assertThat(scan.scan(List.of(10L, 11L))).extracting(Competitor::pid).containsExactly(10L);
    }

    @Test
    void shouldJudgeALongWindowByItsShareAlone(@TempDir final Path root) throws Exception {
        process(root, 10, 'R', 500);
        process(root, 12, 'S', 500);
        BusyScan scan = new BusyScan(new ProcFs(root), 0.05);
        scan.scan(List.of(10L, 12L));
        Thread.sleep(250);
        // 10 is runnable now and then but used no CPU in 250 ms; 12 slept at both scans but used 10 ms of CPU
        process(root, 12, 'S', 502);
        assertThat(scan.scan(List.of(10L, 12L))).extracting(Competitor::pid).containsExactly(12L);
    }
}
