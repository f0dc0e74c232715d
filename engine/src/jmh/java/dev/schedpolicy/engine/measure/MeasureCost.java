package dev.schedpolicy.engine.measure;

import dev.schedpolicy.engine.proc.ProcFs;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What measuring costs. {@link #sampleOneStep}: CPU of one sample of one running step of {@code tasks} tasks (the
 * sampler thread runs it every {@link MeasureBook#DEFAULT_INTERVAL}, so CPU share = time per sample x 10/s).
 * {@link #launchPlain} vs {@link #launchMeasured}: wall of a whole launch of /bin/true without and with a meter
 * (group made, the command's join prefix, attach, last sample, group removed); the difference is the cost per launch.
 */
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms256m", "-Xmx256m"})
public class MeasureCost {
    /** A running step of sleeping tasks: sampling reads every one of them each time. */
    @State(Scope.Benchmark)
    public static class Running {
        @Param({"1", "20", "200"})
        public int tasks;

        MeasureBook book;
        StepMeter meter;
        Process step;

        @Setup(Level.Trial)
        public void start() throws IOException {
            book = new MeasureBook(ProcFs.system(), AccountingGroups.system(), Duration.ofSeconds(10));
            meter = book.open("bench");
            List<String> argv = new ArrayList<>(meter.commandPrefix());
            argv.addAll(List.of("/bin/sh", "-c", "i=1; while [ $i -lt " + tasks + " ]; do sleep 1000 & i=$((i+1)); done; exec sleep 1000"));
            step = new ProcessBuilder(argv).start();
            meter.attach(step.pid());
        }

        @TearDown(Level.Trial)
        public void stop() {
            long[] cost = book.samplingCost();
            System.out.printf("%n[measure-cost] %d tasks: %.1f us of the sampling thread's CPU per sample (%d samples)%n",
                    tasks, cost[0] / 1e3 / Math.max(1, cost[1]), cost[1]);
            step.descendants().forEach(ProcessHandle::destroyForcibly);
            step.destroyForcibly();
            book.close(meter);
        }
    }

    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public void sampleOneStep(final Running r) {
        r.book.tick();
    }

    /** A book that lives as long as the agent does. */
    @State(Scope.Benchmark)
    public static class Book {
        MeasureBook book;

        @Setup(Level.Trial)
        public void open() {
            book = MeasureBook.system();
        }

        @TearDown(Level.Trial)
        public void close() {
            book.close();
        }
    }

    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public int launchPlain() throws Exception {
        return new ProcessBuilder("/bin/true").start().waitFor();
    }

    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public StepMeasure launchMeasured(final Book b) throws Exception {
        StepMeter meter = b.book.open("bench");
        List<String> argv = new ArrayList<>(meter.commandPrefix());
        argv.add("/bin/true");
        Process p = new ProcessBuilder(argv).start();
        meter.attach(p.pid());
        p.waitFor();
        return b.book.close(meter);
    }

    /** As the agent measures a parked Jenkins launch: no join prefix, the agent writes the PID into the group. */
    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public StepMeasure launchMeasuredByPid(final Book b) throws Exception {
        StepMeter meter = b.book.open("bench");
        Process p = new ProcessBuilder("/bin/true").start();
        meter.attach(p.pid());
        p.waitFor();
        return b.book.close(meter);
    }
}
