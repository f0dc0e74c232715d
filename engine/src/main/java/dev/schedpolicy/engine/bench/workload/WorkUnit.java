package dev.schedpolicy.engine.bench.workload;

/** The unit of CPU work all built-in workloads share: a dependent multiply-xorshift chain. */
public final class WorkUnit {
    /** Iterations per unit; one unit takes roughly 0.1-0.3 ms on current x86_64. */
    public static final int ITERATIONS_PER_UNIT = 100_000;

    private static volatile long sink;

    private WorkUnit() {
    }

    /** Does a fraction of a unit: {@code iterations} iterations of the same chain. */
    public static void spinIterations(final long iterations) {
        long x = sink | 1;
        for (long i = 0; i < iterations; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
            x ^= x >>> 29;
        }
        sink = x;
    }

    /** Does {@code units} units of work; the result goes to a volatile sink so it cannot be optimised away. */
    public static void spin(final long units) {
        long x = sink | 1;
        for (long u = 0; u < units; u++) {
            for (int i = 0; i < ITERATIONS_PER_UNIT; i++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
                x ^= x >>> 29;
            }
        }
        sink = x;
    }
}
