package dev.schedpolicy.engine.cgroup;

import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.file.Files;

/** The machine's cgroups for a test that makes groups, or the test skipped with why (no cpu hierarchy, not root). */
public final class WritableCgroups {
    private WritableCgroups() {
    }

    public static CgroupSystem orSkip() {
        CgroupSystem cgroups;
        try {
            cgroups = CgroupSystem.detect();
            cgroups.cpuRoot();
        } catch (RuntimeException e) {
            assumeThat(false).as("needs a cpu cgroup hierarchy: " + e.getMessage()).isTrue();
            throw e;
        }
        assumeThat(Files.isWritable(cgroups.cpuRoot().resolve("cgroup.procs")))
                .as("needs root on a writable cpu cgroup hierarchy (the development machine and CI have one)").isTrue();
        return cgroups;
    }
}
