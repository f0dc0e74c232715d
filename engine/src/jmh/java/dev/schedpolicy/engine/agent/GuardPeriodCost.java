package dev.schedpolicy.engine.agent;

import dev.schedpolicy.engine.buildpage.LaunchMarks;
import dev.schedpolicy.engine.guard.ListedCompetitors;
import dev.schedpolicy.engine.guard.GuardSettings;
import dev.schedpolicy.engine.proc.ProcFs;
import dev.schedpolicy.engine.measure.TaskSampler;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * What one period of an agent's guard costs once its code is compiled (an agent JVM that has guarded for a while; the
 * first minutes of a fresh JVM cost more, bench/guard-cost.sh): the guarded launch's processes and their schedstat read,
 * as every period does, and the competitors' scan (the launch trees of the other launches, each busy one's CPU), as a
 * period does while the guard acts (it then ticks on the scan period). {@code launches} other launches, each a
 * re-parented process carrying its launch's marker, as a shell step leaves it (asleep: what a period reads costs the
 * same for a busy one, and the benchmark's thread keeps its CPU, so that its wall time is its cost). CPU share while acting = (read + scan)
 * x 4 periods a second, plus a listing of /proc ({@code listProc}) for new processes. Run: {@code ./mvnw -q -pl engine -Pbench verify -Djmh.args="GuardPeriodCost -f 1 -wi 3 -i 5"}.
 */
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms256m", "-Xmx256m"})
public class GuardPeriodCost {
    /** An agent's launch trees with {@code launches} busy launches and one guarded, as the registry keeps them. */
    @State(Scope.Benchmark)
    public static class Agent {
        @Param({"8"})
        public int launches;

        final ProcFs proc = ProcFs.system();
        LaunchTrees trees;
        ListedCompetitors competitors;
        TaskSampler sampler;
        private final List<Process> started = new ArrayList<>();

        @Setup(Level.Trial)
        public void start() throws IOException, InterruptedException {
            trees = new LaunchTrees(proc);
            for (int i = 0; i <= launches; i++) {
                ProcessBuilder pb = new ProcessBuilder("/bin/sh", "-c", "(exec sleep 100000) & exit 0");
                pb.environment().put(LaunchMarks.MARKER, "launch-" + i);
                Process p = pb.start();
                started.add(p);
                trees.add("launch-" + i, p.pid());
            }
            Thread.sleep(500);
            String guarded = "launch-" + launches;
            competitors = new ListedCompetitors(proc, () -> trees.processesOfAllBut(Set.of(guarded)).keySet(),
                    GuardSettings.defaults().busyShare());
            sampler = new TaskSampler(proc);
        }

        @TearDown(Level.Trial)
        public void stop() {
            for (Process p : started) {
                p.destroyForcibly();
            }
            for (long pid : trees.processesOfAllBut(Set.of()).keySet()) {
                ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
            }
        }
    }

    /** Every period: the guarded launch's processes, their tasks, their schedstat. */
    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public Object readGuarded(final Agent a) {
        List<Long> tids = new ArrayList<>();
        for (long pid : a.trees.processes("launch-" + a.launches)) {
            tids.addAll(a.proc.threads(pid));
        }
        return a.sampler.sample(tids);
    }

    /** Every 200 ms at most (so nearly every period while acting): the launch trees' listing of /proc for new processes. */
    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public Object listProc(final Agent a) {
        return a.proc.pids();
    }

    /** Every scan: the other launches' processes and which of them are busy. */
    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public Object scanCompetitors(final Agent a) {
        a.competitors.scan(Set.of());
        return a.competitors.busy();
    }
}
