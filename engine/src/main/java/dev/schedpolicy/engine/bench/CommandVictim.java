package dev.schedpolicy.engine.bench;

import dev.schedpolicy.engine.proc.SchedStat;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The user's own victim command: run once under the policy while the background runs; its wall time is the
 * work time, and its CPU comes from the shell's own /proc/PID/stat line read just before it exits (its own
 * and all reaped children's CPU), or from the schedstat sampled while it ran.
 */
final class CommandVictim {
    private final String command;
    private final WorkloadLauncher launcher;
    private final ProcessTracker tracker;
    private final SystemSampler sampler;
    private final long timeoutMs;

    CommandVictim(final String command, final WorkloadLauncher launcher, final ProcessTracker tracker,
            final SystemSampler sampler, final long timeoutMs) {
        this.command = command;
        this.launcher = launcher;
        this.tracker = tracker;
        this.sampler = sampler;
        this.timeoutMs = timeoutMs;
    }

    /** What one run of the command measured. */
    record Measured(Snapshot before, Snapshot after, VictimResult result, double processCpuNs) {
    }

    Measured run(final Background bg, final BenchPolicy policy, final List<String> applied,
            final BenchOptions.Cancellation cancellation, final Placement placement) throws IOException, InterruptedException {
        Path statFile = tracker.log("victim.stat");
        Files.deleteIfExists(statFile);
        String script = "(\n" + command + "\n)\nrc=$?\nread -r s < /proc/$$/stat\n"
                + "printf '%s\\n' \"$s\" > \"$SCHEDPOLICY_STAT\"\nexit $rc\n";
        ProcessBuilder pb = new ProcessBuilder("/bin/sh", "-c", script);
        pb.environment().put("SCHEDPOLICY_STAT", statFile.toString());
        pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.redirectError(tracker.log("victim0.err").toFile());
        pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        Snapshot a = Snapshot.take(sampler, bg, Victims.NONE);
        Placement.Launch launch = placement.victim(pb, policy);
        ProcessStarter.Started st = launcher.startPoliced(launch, policy);
        try {
            applied.add("victim: " + st.applied() + (launch.where().isEmpty() ? "" : " in " + launch.where()));
            Map<Long, SchedStat> perThread = new LinkedHashMap<>();
            ScheduledFuture<?> kill = tracker.killAfter(st, timeoutMs);
            while (!st.process().waitFor(50, TimeUnit.MILLISECONDS)) {
                sampler.sampleTreeThreads(st.process().pid(), perThread);
            }
            kill.cancel(false);
            Snapshot b = Snapshot.take(sampler, bg, Victims.NONE);
            cancellation.throwIfCancelled();
            int rc = st.process().exitValue();
            if (rc != 0) {
                throw new IOException("the victim command failed with exit code " + rc + ": " + tracker.tail("victim0.err"));
            }
            long statCpu = Files.exists(statFile) ? SystemSampler.cpuNsFromStatLine(Files.readString(statFile).trim()) : -1;
            long onCpu = perThread.values().stream().mapToLong(SchedStat::onCpuNanos).sum();
            long wait = perThread.values().stream().mapToLong(SchedStat::runQueueWaitNanos).sum();
            long cpu = statCpu >= 0 ? statCpu : onCpu;
            VictimResult result = new VictimResult(1, 1, b.nanos() - a.nanos(), cpu, wait, null, List.of());
            // the shell's own CPU plus everything it waited for: the whole victim command, start-up included
            return new Measured(a, b, result, cpu);
        } finally {
            tracker.close(st);
        }
    }
}
