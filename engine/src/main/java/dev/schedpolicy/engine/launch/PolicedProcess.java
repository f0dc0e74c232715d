package dev.schedpolicy.engine.launch;

import java.util.List;

/** A {@link PolicedLaunch} this JVM started itself, so it also owns the {@link Process}. */
public final class PolicedProcess extends PolicedLaunch {
    private final Process process;

    PolicedProcess(final Process process, final AppliedPolicy applied, final List<String> warnings, final CpuGroupLease group) {
        super(process.pid(), applied, warnings, group);
        this.process = process;
    }

    public Process process() {
        return process;
    }

    /** Kills the process and its descendants (SIGKILL), then removes the cgroup. */
    public void destroyTree() {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        close();
    }
}
