package dev.schedpolicy.engine.launch;

import java.util.List;

/**
 * A {@link PolicedLaunch} this JVM started itself, so it also owns the {@link Process}. Until it is closed, the JVM's
 * normal exit (or SIGTERM, SIGINT, SIGHUP) kills it with its descendants and removes its group ({@link OwnedLaunches}).
 */
public final class PolicedProcess extends PolicedLaunch {
    private final Process process;

    PolicedProcess(final Process process, final AppliedPolicy applied, final List<String> warnings, final CpuGroupLease group) {
        super(process.pid(), applied, warnings, group);
        this.process = process;
    }

    public Process process() {
        return process;
    }

    /** Closed, the launch is no longer this JVM's to end at shutdown ({@link OwnedLaunches}). */
    @Override
    public void close() {
        super.close();
        OwnedLaunches.closed(this);
    }

    /**
     * Kills the process and its descendants (SIGKILL), then removes the cgroup. The process goes first: killed
     * after its children, a shell would see them die and exit on its own, often with status 0, so a killed
     * launch could look successful. Its descendants are listed before, since once it is dead they are
     * reparented and no longer found through it.
     */
    public void destroyTree() {
        List<ProcessHandle> descendants = process.descendants().toList();
        process.destroyForcibly();
        descendants.forEach(ProcessHandle::destroyForcibly);
        close();
    }
}
