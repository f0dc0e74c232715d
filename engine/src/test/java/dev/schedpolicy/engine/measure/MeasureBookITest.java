package dev.schedpolicy.engine.measure;

import dev.schedpolicy.engine.proc.ProcFs;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Real processes on the real kernel: what the meter reports for steps whose truth the test arranges. */
@EnabledOnOs(OS.LINUX)
class MeasureBookITest {
    private final List<Process> hogs = new ArrayList<>();
    private final MeasureBook book = new MeasureBook(ProcFs.system(), AccountingGroups.system(), Duration.ofMillis(50));

    @AfterEach
    void stop() {
        hogs.forEach(Process::destroyForcibly);
        book.close();
    }

    private static List<String> pinned(final String cpu, final String script) {
        return List.of("taskset", "-c", cpu, "/bin/sh", "-c", script);
    }

    private StepMeasure measure(final String label, final List<String> command) throws IOException, InterruptedException {
        StepMeter meter = book.open(label);
        List<String> argv = new ArrayList<>(meter.commandPrefix());
        argv.addAll(command);
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        meter.attach(p.pid());
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return book.close(meter);
    }

    private void hog(final String cpu) throws IOException {
        hogs.add(new ProcessBuilder(pinned(cpu, "while :; do :; done")).start());
    }

    @Test
    void shouldCountTheCpuOfShortLivedChildrenThatExitedBeforeTheStep() throws Exception {
        // 300 short processes, each gone long before the end: the group's counter still holds their CPU
        StepMeasure m = measure("forks", List.of("/bin/sh", "-c",
                "i=0; while [ $i -lt 300 ]; do /bin/sh -c 'j=0; while [ $j -lt 200 ]; do j=$((j+1)); done'; i=$((i+1)); done"));
        assertThat(m.groupCpuNanos()).isPresent();
        assertThat(m.cpuNanos()).isGreaterThan(m.sampledCpuNanos() / 2).isGreaterThan(50_000_000L);
        assertThat(m.coveragePermille()).isPresent();
        assertThat(m.describe()).anySatisfy(l -> assertThat(l).startsWith("the samples saw "));
    }

    @Test
    void shouldReportTheWaitOfAStepSharingItsCpuWithTwoLoops() throws Exception {
        hog("0");
        hog("0");
        // one loop beside two on the same CPU: runnable all the time, on it a third of it at most (the machine's
        // other load may take more); a task that is always runnable has wait + CPU = wall
        StepMeasure m = measure("victim", pinned("0", "i=0; while [ $i -lt 400000 ]; do i=$((i+1)); done"));
        assertThat(m.waitMeasured()).isTrue();
        assertThat(m.waitShare()).as(m.describe().toString()).isGreaterThan(0.6);
        assertThat((double) (m.waitNanos() + m.cpuNanos()) / m.wallNanos()).as(m.describe().toString()).isBetween(0.85, 1.02);
        assertThat(m.otherWaitNanos()).isGreaterThan(m.waitNanos() / 2);
    }

    @Test
    void shouldNameTheMeasuredNeighbourItWaitedBehind() throws Exception {
        StepMeter neighbour = book.open("compile #212 (no policy)");
        List<String> argv = new ArrayList<>(neighbour.commandPrefix());
        argv.addAll(List.of("/bin/sh", "-c", "for i in 1 2 3 4; do (while :; do :; done) & done; wait"));
        Process n = new ProcessBuilder(argv).start();
        hogs.add(n);
        neighbour.attach(n.pid());
        StepMeasure m = measure("test #7", List.of("/bin/sh", "-c", "i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done"));
        n.descendants().forEach(ProcessHandle::destroyForcibly);
        assertThat(m.neighbours()).as(m.describe().toString()).isNotEmpty();
        assertThat(m.neighbours().get(0).label()).isEqualTo("compile #212 (no policy)");
        // four loops on two CPUs: a real part of what the step waited for, however busy the rest of the machine is
        assertThat(m.neighbours().get(0).waitNanos()).as(m.describe().toString()).isGreaterThan(m.waitNanos() / 20);
    }

    @Test
    void shouldNotNameALaunchThatEndedBeforeTheStepRan() throws Exception {
        measure("docs #88 (idle)", List.of("/bin/sh", "-c", "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done"));
        hog("0");
        StepMeasure m = measure("test #8", pinned("0", "i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done"));
        assertThat(m.waitNanos()).isPositive();
        assertThat(m.neighbours()).as(m.describe().toString()).isEmpty();
        assertThat(m.otherWaitNanos()).isEqualTo(m.waitNanos());
    }

    @Test
    void shouldKeepCountingAProcessThatLeftTheTreeAndLeaveNoGroupBehind() throws Exception {
        StepMeter meter = book.open("daemon");
        Path dir = meter.commandPrefix().isEmpty() ? null : Path.of(meter.commandPrefix().get(3)).getParent();
        List<String> argv = new ArrayList<>(meter.commandPrefix());
        argv.addAll(List.of("/bin/sh", "-c", "setsid /bin/sh -c 'sleep 0.3; i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done; sleep 5' "
                + "</dev/null >/dev/null 2>&1 & sleep 1.5"));
        Process p = new ProcessBuilder(argv).start();
        meter.attach(p.pid());
        p.waitFor();
        StepMeasure m = book.close(meter);
        assertThat(dir).as("this machine has an accounting-group layout").isNotNull();
        assertThat(Files.exists(dir)).isFalse();
        assertThat(m.notes()).anySatisfy(n -> assertThat(n).contains("still ran after it ended"));
        // the escaped loop's CPU is the step's: far more than the two sleeps
        assertThat(m.cpuNanos()).isGreaterThan(50_000_000L);
    }

    @Test
    void shouldFollowTheProcessTreeWhereNoAccountingGroupCanBeMadeAndSaySo(@org.junit.jupiter.api.io.TempDir final Path empty)
            throws Exception {
        Files.createDirectories(empty.resolve("self"));
        Files.writeString(empty.resolve("self/mountinfo"), "");
        Files.writeString(empty.resolve("self/cgroup"), "");
        try (MeasureBook tree = new MeasureBook(ProcFs.system(), new AccountingGroups(empty, empty), Duration.ofMillis(20))) {
            StepMeter meter = tree.open("tree");
            assertThat(meter.commandPrefix()).isEmpty();
            // about a second of the child's CPU: the samples miss what runs after the last one, so a loop of 0.15 s
            // (200,000 rounds) left them under the bound below once in a README verify run
            Process p = new ProcessBuilder("/bin/sh", "-c",
                    "sh -c 'i=0; while [ $i -lt 1000000 ]; do i=$((i+1)); done'; exit 3").start();
            meter.attach(p.pid());
            assertThat(p.waitFor()).isEqualTo(3);
            StepMeasure m = tree.close(meter);
            assertThat(m.groupCpuNanos()).isEmpty();
            // the child's loop ran in a process the samples reached only through the tree
            assertThat(m.sampledCpuNanos()).as(m.describe().toString()).isGreaterThan(50_000_000L);
            assertThat(m.source()).startsWith("the process tree from /proc (no accounting group: no writable cgroup v2");
            assertThat(m.notes()).anySatisfy(n -> assertThat(n).contains("are not counted"));
        }
    }

    @Test
    void shouldLeaveTheStepInTheLaunchersCpuTaskGroup() throws Exception {
        StepMeter meter = book.open("placement");
        List<String> argv = new ArrayList<>(meter.commandPrefix());
        argv.addAll(List.of("/bin/sh", "-c", "cat /proc/self/cgroup"));
        Process p = new ProcessBuilder(argv).start();
        meter.attach(p.pid());
        String child = new String(p.getInputStream().readAllBytes());
        p.waitFor();
        book.close(meter);
        String own = Files.readString(Path.of("/proc/self/cgroup"));
        assertThat(AccountingGroups.pathFor(child, "cpu")).isEqualTo(AccountingGroups.pathFor(own, "cpu"));
        assertThat(AccountingGroups.pathFor(child, "")).get().asString().contains(AccountingGroups.PREFIX);
    }
}
