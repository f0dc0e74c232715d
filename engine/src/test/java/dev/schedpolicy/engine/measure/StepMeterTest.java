package dev.schedpolicy.engine.measure;

import dev.schedpolicy.engine.proc.ProcFs;
import dev.schedpolicy.engine.proc.SchedStat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicReference;

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

    /** A task with the given schedstat line (on CPU, wait, slices) in the fake /proc. */
    private void task(final long tid, final String schedstat) throws Exception {
        Files.createDirectories(proc.resolve("self"));
        Files.writeString(proc.resolve("self/schedstat"), "1 1 1\n");
        Files.createDirectories(proc.resolve(tid + "/task/" + tid));
        Files.writeString(proc.resolve(tid + "/schedstat"), schedstat + "\n");
    }

    @Test
    void shouldTakeAQuotasHoldReadLateOutOfTheWaitAtTheEnd() throws Exception {
        task(77, "100 0 1");
        AtomicReference<OptionalLong> hold = new AtomicReference<>(OptionalLong.of(0));
        StepMeter meter = new StepMeter("quota", new ProcFs(proc), new AccountingGroups.Choice(Optional.empty(), "none"));
        meter.attach(77);
        meter.throttledBy(hold::get);
        meter.sample();
        // 900 ns queued, 800 of them the quota's hold, which the group's cpu.stat could not be read for meanwhile
        hold.set(OptionalLong.empty());
        task(77, "200 900 2");
        meter.chargeOther(meter.sample().runQueueWaitNanos());
        hold.set(OptionalLong.of(800));
        StepMeasure m = meter.finish();
        assertThat(m.throttledNanos()).isEqualTo(800);
        assertThat(m.waitNanos()).as("the wait without the hold").isEqualTo(100);
        assertThat(m.otherWaitNanos()).as("what the samples charged, scaled to the wait").isEqualTo(100);
    }

    @Test
    void shouldSetOnlyTheHoldSinceTheQuotaWasKnownAgainstTheWait() throws Exception {
        task(77, "100 0 1");
        StepMeter meter = new StepMeter("quota", new ProcFs(proc), new AccountingGroups.Choice(Optional.empty(), "none"));
        meter.attach(77);
        meter.sample();
        // the launch was held 500 ns before its quota group was handed to the meter, and not after
        meter.throttledBy(() -> OptionalLong.of(500));
        task(77, "200 300 2");
        meter.sample();
        assertThat(meter.finish().waitNanos()).as("300 ns queued with no hold since").isEqualTo(300);
    }

    @Test
    void shouldCutAWaitLongerThanTheTaskCouldHaveLived() throws Exception {
        task(77, "100 5000 1");
        long[] now = {1_000};
        TaskSampler sampler = new TaskSampler(new ProcFs(proc), () -> now[0], 0);
        assertThat(sampler.sample(java.util.List.of(77L))).as("1000 ns lived, 100 on a CPU").isEqualTo(new SchedStat(100, 900, 1));
        assertThat(sampler.waitCut()).isEqualTo(4100);
        now[0] = 10_000;
        assertThat(sampler.sample(java.util.List.of(77L))).as("within its lifetime now").isEqualTo(new SchedStat(100, 5000, 1));
        assertThat(new TaskSampler(new ProcFs(proc)).sample(java.util.List.of(77L))).as("a task of unknown age is not cut")
                .isEqualTo(new SchedStat(100, 5000, 1));
    }
}
