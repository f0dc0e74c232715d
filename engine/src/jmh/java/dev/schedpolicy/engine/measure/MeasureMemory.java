package dev.schedpolicy.engine.measure;

import dev.schedpolicy.engine.proc.ProcFs;

import java.util.ArrayList;
import java.util.List;

/**
 * Heap a measured step holds on the agent: 200 samplers that each saw the same running step of N tasks, retained
 * heap after full GCs divided by 200 (the meter's fixed fields are measured the same way with 1000 unattached meters).
 * Run: java -cp ENGINE_CLASSPATH dev.schedpolicy.engine.measure.MeasureMemory 200
 */
public final class MeasureMemory {
    private MeasureMemory() {
    }

    public static void main(final String[] args) throws Exception {
        int tasks = Integer.parseInt(args[0]);
        Process step = new ProcessBuilder("/bin/sh", "-c",
                "i=1; while [ $i -lt " + tasks + " ]; do sleep 1000 & i=$((i+1)); done; exec sleep 1000").start();
        Thread.sleep(2000);
        List<Long> tids = new ArrayList<>();
        tids.add(step.pid());
        step.descendants().forEach(h -> tids.add(h.pid()));
        long before = used();
        List<TaskSampler> samplers = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            TaskSampler s = new TaskSampler(ProcFs.system());
            s.sample(tids);
            samplers.add(s);
        }
        long after = used();
        System.out.printf("sampler state for a step of %d tasks: %d bytes%n", tids.size(), (after - before) / samplers.size());
        MeasureBook book = new MeasureBook(ProcFs.system(), (AccountingGroups) null, java.time.Duration.ofSeconds(1));
        List<StepMeter> meters = new ArrayList<>();
        long before2 = used();
        for (int i = 0; i < 1000; i++) {
            meters.add(new StepMeter("build #" + i + " step " + i, ProcFs.system(),
                    new AccountingGroups.Choice(java.util.Optional.empty(), "none")));
        }
        long after2 = used();
        System.out.printf("meter without tasks: %d bytes%n", (after2 - before2) / meters.size());
        step.descendants().forEach(ProcessHandle::destroyForcibly);
        step.destroyForcibly();
        System.out.println(samplers.size() + meters.size() + (book == null ? 0 : 1));
    }

    private static long used() throws InterruptedException {
        for (int i = 0; i < 4; i++) {
            System.gc();
            Thread.sleep(100);
        }
        Runtime r = Runtime.getRuntime();
        return r.totalMemory() - r.freeMemory();
    }
}
