package dev.schedpolicy.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code schedpolicy run --measure} as a real process: the figures on stderr, everything else untouched. */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RunMeasureITest {
    private static final Pattern FIGURES = Pattern.compile(
            "schedpolicy: measured: waited (\\d+\\.\\d)% of its runnable time for a CPU \\(wait (\\d+\\.\\d+) s, CPU (\\d+\\.\\d+) s, wall (\\d+\\.\\d+) s\\)");
    private static final Pattern TIMES = Pattern.compile("(\\d+)m(\\d+\\.\\d+)s");

    @Test
    void shouldPrintTheFiguresAtTheEndAndPassTheStatusThrough() throws Exception {
        Process p = RunProcessITest.schedpolicy("run", "--measure", "--", "sh", "-c", "echo out; exit 7").start();
        assertThat(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("out\n");
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).isEqualTo(7);
        assertThat(err).containsPattern(FIGURES).contains("schedpolicy: measured: source: ");
    }

    @Test
    void shouldKeepTheTimeTheQuotaHeldTheCommandBackOutOfTheWait() throws Exception {
        // a CPU quota holds its group back once it used its share of a period; the held task stays queued, so schedstat
        // counts the hold as run-queue wait although no other task had the CPU
        Process p = RunProcessITest.schedpolicy("run", "--measure", "--cpu-quota", "20", "--", "timeout", "3", "sh", "-c",
                "while :; do :; done").start();
        p.getInputStream().readAllBytes();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(err).isEqualTo(124);
        Matcher m = FIGURES.matcher(err);
        assertThat(m.find()).as(err).isTrue();
        Matcher held = Pattern.compile("held back (\\d+\\.\\d+) s by its CPU quota").matcher(err);
        assertThat(held.find()).as("the hold, its own figure: " + err).isTrue();
        double runnable = Double.parseDouble(m.group(2)) + Double.parseDouble(m.group(3)) + Double.parseDouble(held.group(1));
        // the loop is runnable for its 3 s: on a CPU, waiting or held, never two at once (counted twice: about 5 s)
        assertThat(runnable).as(err).isBetween(2.5, Double.parseDouble(m.group(4)) * 1.1);
    }

    @Test
    void shouldReportTheCpuOfTheWholeTreeAsTheShellCountsIt() throws Exception {
        // the shell's `times` sums its own CPU and that of every child it waited for (exited ones): the same truth
        Process p = RunProcessITest.schedpolicy("run", "--measure", "--", "sh", "-c",
                "for k in 1 2 3 4 5 6; do sh -c 'i=0; while [ $i -lt 60000 ]; do i=$((i+1)); done'; done; times").start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).isZero();
        double shellCpu = 0;
        Matcher t = TIMES.matcher(out);
        while (t.find()) {
            shellCpu += Integer.parseInt(t.group(1)) * 60 + Double.parseDouble(t.group(2));
        }
        Matcher m = FIGURES.matcher(err);
        assertThat(m.find()).as(err).isTrue();
        double cpu = Double.parseDouble(m.group(3));
        double wall = Double.parseDouble(m.group(4));
        assertThat(cpu).as(out + err).isCloseTo(shellCpu, org.assertj.core.data.Offset.offset(0.05 + shellCpu * 0.1));
        assertThat(cpu).isGreaterThan(0.1).isLessThan(wall * Runtime.getRuntime().availableProcessors());
    }

    @Test
    void shouldRefuseMeasuringAContainerRunInWords() throws Exception {
        Process p = RunProcessITest.schedpolicy("run", "--measure", "--container", "--cpu-idle", "--", "docker", "run", "x").start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).isEqualTo(2);
        assertThat(err).contains("--measure and --container exclude each other");
    }
}
