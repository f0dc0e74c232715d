package dev.schedpolicy.engine.bench;

import dev.schedpolicy.engine.bench.workload.Protocol;
import java.io.BufferedReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/** The started background of one run: its processes and the work units they report. */
final class Background {
    /** How {@code where} starts for a copy in its own container. */
    static final String CONTAINER = "own container ";
    static final Background NONE = new Background(List.of(), 0, List.of(), List.of());

    private final List<ProcessStarter.Started> processes;
    private final int copies;
    private final List<String> where;
    private final List<Long> cpuPids;
    private final List<AtomicLong> units = new ArrayList<>();

    /**
     * @param where   per process, the task group it was placed in ("" when it shares the victim's)
     * @param cpuPids per process, whose process tree its CPU time is read from: itself, or for a copy in a container the
     *                container's main process (the client's tree holds none of the work)
     */
    Background(final List<ProcessStarter.Started> processes, final int copies, final List<String> where, final List<Long> cpuPids) {
        this.processes = List.copyOf(processes);
        this.copies = copies;
        this.where = List.copyOf(where);
        this.cpuPids = List.copyOf(cpuPids);
    }

    /** Per process, whose process tree holds its work (for a copy in a container, the container's main process). */
    List<Long> cpuPids() {
        return cpuPids;
    }

    /** What the kernel reported for the background, in words; one line for copies that all read the same. */
    String applied() {
        List<String> distinct = new ArrayList<>();
        for (int i = 0; i < processes.size(); i++) {
            String w = where.get(i);
            // a copy in a container: what its container holds is the policy; its client's own values are not
            String text = w.startsWith(CONTAINER) ? w : processes.get(i).applied() + (w.isEmpty() ? ""
                    : " in " + w.replaceAll("^(own cgroup) /\\S*$", "$1"));
            if (!distinct.contains(text)) {
                distinct.add(text);
            }
        }
        return (processes.size() > 1 ? processes.size() + " processes: " : "") + String.join(", ", distinct);
    }

    List<ProcessStarter.Started> processes() {
        return processes;
    }

    int copies() {
        return copies;
    }

    /** Follows a workload's progress lines on a daemon thread; the last count stands when the process dies. */
    void follow(final BufferedReader out) {
        AtomicLong mine = new AtomicLong();
        units.add(mine);
        Thread t = new Thread(() -> {
            try {
                String line;
                while ((line = out.readLine()) != null) {
                    Protocol.progressUnits(line).ifPresent(mine::set);
                }
            } catch (IOException | NumberFormatException e) {
                // the process was killed: the last count stands
            }
        }, "schedpolicy-bench-background-reader");
        t.setDaemon(true);
        t.start();
    }

    long units() {
        return units.stream().mapToLong(AtomicLong::get).sum();
    }

    long cpuNs(final SystemSampler sampler) {
        return cpuPids.stream().mapToLong(sampler::treeCpuNs).sum();
    }

    /** The cgroup counters summed over the background's groups; empty when none is in a policy group. */
    Optional<ProcessStarter.Throttling> throttling() {
        List<ProcessStarter.Throttling> all = processes.stream().map(ProcessStarter.Started::throttling)
                .flatMap(Optional::stream).toList();
        if (all.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new ProcessStarter.Throttling(all.stream().mapToLong(ProcessStarter.Throttling::nrPeriods).sum(),
                all.stream().mapToLong(ProcessStarter.Throttling::nrThrottled).sum(),
                all.stream().mapToLong(ProcessStarter.Throttling::throttledUsec).sum()));
    }
}
