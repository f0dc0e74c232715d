package dev.schedpolicy.engine.measure;

import dev.schedpolicy.engine.proc.ProcFs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** Faults end in words, never in a number that is not one: a fake /proc stands for kernels without schedstat. */
class StepMeterTest {
    @TempDir
    Path proc;

    @Test
    void shouldSayTheWaitWasNotMeasuredWhereTheKernelKeepsNoSchedstat() throws Exception {
        Files.createDirectories(proc.resolve("self"));
        Files.createDirectories(proc.resolve("4242/task/4242"));
        StepMeter meter = new StepMeter("no-schedstat", new ProcFs(proc), new AccountingGroups.Choice(Optional.empty(), "none here"));
        meter.attach(4242);
        meter.sample();
        StepMeasure m = meter.finish();
        assertThat(m.waitMeasured()).isFalse();
        assertThat(m.describe().get(0)).startsWith("run-queue wait not measured");
        assertThat(m.notes()).anySatisfy(n -> assertThat(n).contains("no per-task schedstat"));
        assertThat(m.source()).contains("no accounting group: none here");
    }

    @Test
    void shouldKeepTheLastSampleOfATaskThatEndedBetweenSamples() throws Exception {
        Files.createDirectories(proc.resolve("self"));
        Files.writeString(proc.resolve("self/schedstat"), "1 1 1\n");
        Path task = Files.createDirectories(proc.resolve("77/task/77"));
        Files.writeString(proc.resolve("77/schedstat"), "3000 1000 5\n");
        StepMeter meter = new StepMeter("gone", new ProcFs(proc), new AccountingGroups.Choice(Optional.empty(), "none"));
        meter.attach(77);
        meter.sample();
        Files.delete(proc.resolve("77/schedstat"));
        Files.delete(task);
        meter.sample();
        StepMeasure m = meter.finish();
        assertThat(m.sampledCpuNanos()).isEqualTo(3000);
        assertThat(m.waitNanos()).isEqualTo(1000);
        assertThat(m.waitShare()).isEqualTo(0.25);
        assertThat(m.groupCpuNanos()).isEmpty();
    }
}
