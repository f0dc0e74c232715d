package dev.schedpolicy.engine.bench.workload;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Background load: {@code --threads N} endless loops, {@code --mode cpu} (kernel units) or {@code memory}
 * (each thread streams two 20 MB int arrays into each other; one unit = one pass = 40 MB moved).
 * Prints {@code P <total units>} every 100 ms; with {@code --print-rate} also {@code loops/s} lines, like
 * the CFS-bandwidth article's counter. Runs until killed.
 */
public final class Looper {
    static final int ARRAY_INTS = 20 * 1024 * 1024 / 4;

    private Looper() {
    }

    public static void main(final String[] argv) throws Exception {
        Args args = new Args(argv);
        int threads = (int) args.getLong("threads", 1);
        boolean memory = args.get("mode", "cpu").equals("memory");
        boolean printRate = args.has("print-rate");
        AtomicLongArray counts = new AtomicLongArray(threads * 16); // one cache line apart
        for (int t = 0; t < threads; t++) {
            int slot = t * 16;
            Thread th = new Thread(() -> {
                if (memory) {
                    int[] a = new int[ARRAY_INTS];
                    int[] b = new int[ARRAY_INTS];
                    while (true) {
                        for (int i = 0; i < ARRAY_INTS; i++) {
                            b[i] = a[i] + 1;
                        }
                        int[] swap = a;
                        a = b;
                        b = swap;
                        counts.lazySet(slot, counts.get(slot) + 1);
                    }
                }
                while (true) {
                    WorkUnit.spin(1);
                    counts.lazySet(slot, counts.get(slot) + 1);
                }
            }, "looper-" + t);
            th.setDaemon(true);
            th.start();
        }
        long lastTotal = 0;
        long lastRate = System.nanoTime();
        while (true) {
            Thread.sleep(100);
            long total = 0;
            for (int t = 0; t < threads; t++) {
                total += counts.get(t * 16);
            }
            Protocol.progress(total);
            long now = System.nanoTime();
            if (printRate && now - lastRate >= 1_000_000_000L) {
                System.out.println("loops/s " + Math.round((total - lastTotal) * 1e9 / (now - lastRate)));
                lastTotal = total;
                lastRate = now;
            }
            System.out.flush();
        }
    }
}
