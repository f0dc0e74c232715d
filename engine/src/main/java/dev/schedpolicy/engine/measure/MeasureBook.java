package dev.schedpolicy.engine.measure;

import dev.schedpolicy.engine.proc.CpuTimes;
import dev.schedpolicy.engine.proc.ProcFs;
import dev.schedpolicy.engine.proc.SchedStat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The measured steps of one agent (or one CLI run), sampled together by one thread, so that each sample also says
 * who ran beside whom: a step's run-queue wait in an interval is charged to the other measured steps in proportion to
 * the CPU they used in that interval, and the rest of the machine's busy time there to "other processes on the
 * machine". That split is an apportionment from the same samples, not a kernel figure; the wait itself is.
 */
public final class MeasureBook implements AutoCloseable {
    /** The default sampling interval: the cost benchmark (docs/jenkins.md) measures what it takes. */
    public static final Duration DEFAULT_INTERVAL = Duration.ofMillis(100);

    /**
     * The CPU the sampler may spend per measured step, as a share of one CPU: when a sample costs more (many tasks),
     * the interval stretches, so the cost stays bounded and the coverage line shows what the longer interval missed.
     */
    static final double CPU_BUDGET_PER_STEP = 0.004;

    /** The longest the interval stretches to: beyond it the coverage loss would outweigh the cost saved. */
    static final long MAX_INTERVAL_MILLIS = 2_000;

    private static final java.lang.management.ThreadMXBean THREADS = java.lang.management.ManagementFactory.getThreadMXBean();

    private final ProcFs proc;
    private final AccountingGroups groups;
    private final long intervalMillis;
    /** Active meters; the value, when not null, is told the figures once the step's group is empty. */
    private final Map<StepMeter, java.util.function.Consumer<StepMeasure>> active = new LinkedHashMap<>();
    private Thread sampler;
    private Optional<CpuTimes> lastCpu = Optional.empty();
    private long nextSleepMillis;
    private long samplingCpuNanos;
    private long ticks;
    private long averageCost;

    public MeasureBook(final ProcFs proc, final AccountingGroups groups, final Duration interval) {
        if (interval.toMillis() < 10 || interval.toMillis() > 10_000) {
            throw new IllegalArgumentException("the sampling interval must be 10..10000 ms, not " + interval.toMillis());
        }
        this.proc = proc;
        this.groups = groups;
        this.intervalMillis = interval.toMillis();
        this.nextSleepMillis = intervalMillis;
    }

    public static MeasureBook system() {
        return new MeasureBook(ProcFs.system(), AccountingGroups.system(), DEFAULT_INTERVAL);
    }

    /** A meter for a step about to launch; sampled from {@link StepMeter#attach} on until {@link #close(StepMeter)}. */
    public StepMeter open(final String label) {
        return open(label, false);
    }

    /** As {@link #open(String)}, for a step whose policy places it in a cpu cgroup ({@link AccountingGroups#create(boolean)}). */
    public synchronized StepMeter open(final String label, final boolean placedByPolicy) {
        return open(label, placedByPolicy, null);
    }

    /**
     * A meter that ends by itself once every process of the step has exited (its accounting group is empty, or without
     * a group its first process is gone), then hands its figures to {@code onEnd} on the sampler thread. For launches
     * whose first process returns before the work does (Jenkins' durable tasks run the script in the background).
     */
    public StepMeter openUntilEmpty(final String label, final boolean placedByPolicy,
            final java.util.function.Consumer<StepMeasure> onEnd) {
        return openUntilEmpty(label, "", placedByPolicy, onEnd);
    }

    /** As {@link #openUntilEmpty(String, boolean, java.util.function.Consumer)}, for a step of {@code owner} ({@link Neighbour#owner()}). */
    public StepMeter openUntilEmpty(final String label, final String owner, final boolean placedByPolicy,
            final java.util.function.Consumer<StepMeasure> onEnd) {
        return open(label, owner, placedByPolicy, java.util.Objects.requireNonNull(onEnd, "onEnd"));
    }

    /**
     * As {@link #openUntilEmpty(String, String, boolean, java.util.function.Consumer)}, for a step whose processes a
     * container runtime starts: {@code tasks} finds them (in the container's cgroup), and says when they are over.
     */
    public synchronized StepMeter openUntilEmpty(final String label, final String owner, final TaskSource tasks,
            final java.util.function.Consumer<StepMeasure> onEnd) {
        StepMeter meter = new StepMeter(label, java.util.Objects.requireNonNull(owner, "owner"), proc,
                java.util.Objects.requireNonNull(tasks, "tasks"));
        return watch(meter, java.util.Objects.requireNonNull(onEnd, "onEnd"));
    }

    private synchronized StepMeter open(final String label, final boolean placedByPolicy,
            final java.util.function.Consumer<StepMeasure> onEnd) {
        return open(label, "", placedByPolicy, onEnd);
    }

    private synchronized StepMeter open(final String label, final String owner, final boolean placedByPolicy,
            final java.util.function.Consumer<StepMeasure> onEnd) {
        StepMeter meter = new StepMeter(label, java.util.Objects.requireNonNull(owner, "owner"), proc, groups.create(placedByPolicy));
        return watch(meter, onEnd);
    }

    private synchronized StepMeter watch(final StepMeter meter, final java.util.function.Consumer<StepMeasure> onEnd) {
        active.put(meter, onEnd);
        if (sampler == null) {
            lastCpu = readCpu();
            sampler = new Thread(this::run, "schedpolicy-measure");
            sampler.setDaemon(true);
            sampler.start();
        }
        return meter;
    }

    /** Takes the step's last sample, ends it, and returns its figures. */
    public StepMeasure close(final StepMeter meter) {
        synchronized (this) {
            if (active.containsKey(meter)) {
                tick();
                active.remove(meter);
            }
        }
        return meter.finish();
    }

    /** Ends the watched steps whose processes have all exited (the tick just took their last sample). */
    private void endEmptySteps() {
        for (Map.Entry<StepMeter, java.util.function.Consumer<StepMeasure>> e : new ArrayList<>(active.entrySet())) {
            if (e.getValue() != null && e.getKey().empty()) {
                active.remove(e.getKey());
                e.getValue().accept(e.getKey().finish());
            }
        }
    }

    /** The number of steps measured now. */
    public synchronized int activeSteps() {
        return active.size();
    }

    private void run() {
        while (true) {
            try {
                Thread.sleep(nextSleepMillis);
            } catch (InterruptedException e) {
                break;
            }
            synchronized (this) {
                if (active.isEmpty()) {
                    sampler = null;
                    return;
                }
                tick();
                endEmptySteps();
            }
        }
        synchronized (this) {
            sampler = null;
        }
    }

    /** One sample of every active step, and the charge of each one's wait to the others. */
    synchronized void tick() {
        long cpuBefore = THREADS.getCurrentThreadCpuTime();
        sampleAll();
        long cost = THREADS.getCurrentThreadCpuTime() - cpuBefore;
        samplingCpuNanos += cost;
        ticks++;
        // the first samples pay for class loading and a cold JIT (in an emulated guest, tens of ms): they must not
        // stretch the interval for the whole step, so the cost is averaged and the first one left out
        if (ticks > 1) {
            averageCost = averageCost == 0 ? cost : (long) (0.7 * averageCost + 0.3 * cost);
        }
        long budgetMillis = (long) (averageCost / (CPU_BUDGET_PER_STEP * Math.max(1, active.size())) / 1_000_000);
        nextSleepMillis = Math.min(MAX_INTERVAL_MILLIS, Math.max(intervalMillis, budgetMillis));
    }

    /** CPU the sampling took so far (this book's sampler thread and last samples), and how many samples it took. */
    public synchronized long[] samplingCost() {
        return new long[] {samplingCpuNanos, ticks};
    }

    private void sampleAll() {
        List<StepMeter> meters = new ArrayList<>(active.keySet());
        long[] cpu = new long[meters.size()];
        long[] wait = new long[meters.size()];
        long stepsCpu = 0;
        for (int i = 0; i < meters.size(); i++) {
            SchedStat d = meters.get(i).sample();
            cpu[i] = Math.max(0, d.onCpuNanos());
            wait[i] = Math.max(0, d.runQueueWaitNanos());
            stepsCpu += cpu[i];
        }
        Optional<CpuTimes> now = readCpu();
        long busy = 0;
        if (now.isPresent() && lastCpu.isPresent()) {
            busy = (now.get().totalNs() - now.get().idleNs()) - (lastCpu.get().totalNs() - lastCpu.get().idleNs());
        }
        lastCpu = now;
        long others = Math.max(0, busy - stepsCpu);
        for (int i = 0; i < meters.size(); i++) {
            if (wait[i] == 0) {
                continue;
            }
            long competitors = others;
            for (int j = 0; j < meters.size(); j++) {
                competitors += j == i ? 0 : cpu[j];
            }
            if (competitors == 0) {
                meters.get(i).chargeOther(wait[i]);
                continue;
            }
            long given = 0;
            for (int j = 0; j < meters.size(); j++) {
                if (j != i && cpu[j] > 0) {
                    long part = wait[i] * cpu[j] / competitors;
                    meters.get(i).charge(meters.get(j), part);
                    given += part;
                }
            }
            meters.get(i).chargeOther(wait[i] - given);
        }
    }

    private Optional<CpuTimes> readCpu() {
        try {
            return proc.cpuTimes();
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Ends every step still measured (their groups are removed). */
    @Override
    public void close() {
        List<StepMeter> left;
        synchronized (this) {
            left = new ArrayList<>(active.keySet());
        }
        left.forEach(this::close);
    }
}
