package dev.schedpolicy.engine.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** How the benchmark starts every process under a policy; the engine's policy-thread launcher in production. */
public interface ProcessStarter {
    Started start(ProcessBuilder builder, BenchPolicy policy) throws IOException;

    /**
     * Starts under a policy whose cgroup part (quota, weight, cpu-idle) gets its group under the given parent
     * instead of the starter's default; a starter without cgroups ignores the parent.
     */
    default Started start(final ProcessBuilder builder, final BenchPolicy policy, final Optional<Path> cgroupParent)
            throws IOException {
        return start(builder, policy);
    }

    /** Throws with a message when the label is not a policy this starter can apply. */
    void validate(String label);

    /** cgroup cpu.stat counters of a policed process's group. */
    record Throttling(long nrPeriods, long nrThrottled, long throttledUsec) {
    }

    /** A started process; closing it kills it with all descendants and removes its cgroup. */
    interface Started extends AutoCloseable {
        Process process();

        /** What the kernel reported for the process, in words. */
        String applied();

        List<String> warnings();

        Optional<Throttling> throttling();

        @Override
        void close();
    }

    /** Kills a process and its descendants, children first. */
    static void killTree(final Process process) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }
}
