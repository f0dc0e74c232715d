package dev.schedpolicy.engine.bench;

import dev.schedpolicy.engine.bench.workload.Protocol;
import dev.schedpolicy.engine.proc.SchedStat;
import java.io.BufferedReader;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;

/**
 * The user's own victim command, run once under the policy while the background runs. Its shell starts in its
 * place (its session or cgroup), says {@link Protocol#READY} and waits for {@link Protocol#GO}, as the built-in
 * victims do: the measuring window holds the command alone, not this JVM's spawn and the move into a cgroup,
 * which beside 4 compile loops took 0.8 points of a 0.6 s victim's kept % (issue 26, docs/results.md). When
 * the command ends the shell prints {@code DONE} with its own /proc/PID/stat line, whose reaped-children CPU
 * is the command's; the schedstat sampled while it ran is the fallback.
 */
final class CommandVictim {
    static final String DONE = "DONE ";
    private static final long SAMPLE_MS = 50;

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

    /**
     * The shell around the command: a lost runner (end of input before GO) ends it before the command runs;
     * the command keeps /dev/null as its input and output, as before the handshake.
     */
    static String script(final String command) {
        return "echo " + Protocol.READY + "\n"
                + "read -r go && [ \"$go\" = " + Protocol.GO + " ] || exit 125\n"
                + "(\n" + command + "\n) </dev/null >/dev/null\n"
                + "rc=$?\n"
                + "read -r s < /proc/$$/stat\n"
                + "printf '" + DONE + "%s\\n' \"$s\"\n"
                + "exit $rc\n";
    }

    Measured run(final Background bg, final BenchPolicy policy, final List<String> applied,
            final BenchOptions.Cancellation cancellation, final Placement placement, final LongConsumer started)
            throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("/bin/sh", "-c", script(command));
        pb.redirectError(tracker.log("victim0.err").toFile());
        Placement.Launch launch = placement.victim(pb, policy);
        ProcessStarter.Started st = launcher.startPoliced(launch, policy);
        try {
            applied.add("victim: " + st.applied() + (launch.where().isEmpty() ? "" : " in " + launch.where()));
            BufferedReader out = WorkloadLauncher.reader(st.process());
            if (!Protocol.READY.equals(tracker.readLine(out, st, timeoutMs))) {
                cancellation.throwIfCancelled();
                throw new IOException("the victim command's shell did not start: " + tracker.tail("victim0.err"));
            }
            placement.verify(launch, st.process().pid());
            started.accept(st.process().pid());
            Map<Long, SchedStat> perThread = new LinkedHashMap<>();
            Snapshot a = Snapshot.take(sampler, bg, Victims.NONE);
            WorkloadLauncher.sayGo(st.process());
            ScheduledFuture<?> sampling = tracker.repeat(() -> {
                synchronized (perThread) {
                    sampler.sampleTreeThreads(st.process().pid(), perThread);
                }
            }, SAMPLE_MS);
            String done;
            try {
                // this thread blocks in the read, so the window closes as soon as the shell says DONE
                done = tracker.readLine(out, st, timeoutMs);
            } finally {
                sampling.cancel(false);
            }
            Snapshot b = Snapshot.take(sampler, bg, Victims.NONE);
            cancellation.throwIfCancelled();
            if (!st.process().waitFor(timeoutMs, TimeUnit.MILLISECONDS)) {
                throw new IOException("the victim command's shell did not exit after the command ended");
            }
            int rc = st.process().exitValue();
            if (done == null || !done.startsWith(DONE)) {
                throw new IOException("the victim command ended without finishing (exit code " + rc + "): "
                        + tracker.tail("victim0.err"));
            }
            if (rc != 0) {
                throw new IOException("the victim command failed with exit code " + rc + ": " + tracker.tail("victim0.err"));
            }
            long statCpu = SystemSampler.cpuNsFromStatLine(done.substring(DONE.length()).trim());
            long onCpu;
            long wait;
            synchronized (perThread) {
                onCpu = perThread.values().stream().mapToLong(SchedStat::onCpuNanos).sum();
                wait = perThread.values().stream().mapToLong(SchedStat::runQueueWaitNanos).sum();
            }
            long cpu = statCpu >= 0 ? statCpu : onCpu;
            VictimResult result = new VictimResult(1, 1, b.nanos() - a.nanos(), cpu, wait, null, List.of());
            // the shell's own CPU plus everything it waited for: the whole victim command, its start-up included
            return new Measured(a, b, result, cpu);
        } finally {
            tracker.close(st);
        }
    }
}
