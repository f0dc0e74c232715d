package dev.schedpolicy.engine.scenario;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/** The built-in workload programs; each runs as its own JVM so a policy applies to it alone. */
public enum Builtin {
    /** Fixed CPU work split into N worker threads; reports work time and schedstat as one JSON line. */
    CPU_VICTIM("cpu-victim", true, "dev.schedpolicy.engine.bench.workload.CpuVictim"),
    /** Periodic task: fixed work every period (100 ms unless set); reports its wakeup latency histogram (HdrHistogram). */
    PERIODIC("periodic", true, "dev.schedpolicy.engine.bench.workload.PeriodicTask"),
    /** Like a test job: fixed CPU work interleaved with short-lived child processes (key forks, 20 unless set). */
    TEST_JOB("test-job", true, "dev.schedpolicy.engine.bench.workload.CpuVictim"),
    /** rt-tests' cyclictest as the periodic victim, its histogram reported like periodic's: the cross-check. */
    CYCLICTEST("cyclictest", true, "dev.schedpolicy.engine.bench.workload.CyclictestVictim"),
    /** N threads of fixed CPU work; reports steps/ms, average time slice and run-queue time per thread. */
    THREAD_EATER("thread-eater", true, "dev.schedpolicy.engine.bench.workload.CpuVictim"),
    /** Endless CPU-only loop per thread; reports its loop count every 100 ms. */
    CPU_LOOPER("cpu-looper", false, "dev.schedpolicy.engine.bench.workload.Looper"),
    /** Endless loop per thread streaming two 20 MB arrays; reports passes every 100 ms. */
    MEMORY_LOOPER("memory-looper", false, "dev.schedpolicy.engine.bench.workload.Looper"),
    /**
     * A compile like a real build's: the JDK's own compiler, in process, compiling a generated source tree (key
     * classes, 60 unless set) again and again, one compile thread per copy; reports classes compiled.
     */
    COMPILE_LOOP("compile-loop", false, "dev.schedpolicy.engine.bench.workload.CompileLoop"),
    /** A CPU loop that also prints its loops per second, like the CFS-bandwidth article's counter. */
    LOOP_COUNTER("loop-counter", false, "dev.schedpolicy.engine.bench.workload.Looper");

    private final String id;
    private final boolean victim;
    private final String mainClass;

    Builtin(final String id, final boolean victim, final String mainClass) {
        this.id = id;
        this.victim = victim;
        this.mainClass = mainClass;
    }

    public String id() {
        return id;
    }

    /** Victims do fixed work and exit; the others loop until killed. */
    public boolean isVictim() {
        return victim;
    }

    public String mainClass() {
        return mainClass;
    }

    public static Optional<Builtin> byId(final String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        return Arrays.stream(values()).filter(b -> b.id.equals(t)).findFirst();
    }

    public static String ids(final boolean victims) {
        return Arrays.stream(values()).filter(b -> b.victim == victims).map(Builtin::id).collect(Collectors.joining(", "));
    }
}
