package dev.schedpolicy.engine.launch;

import dev.schedpolicy.engine.jna.JnaKernel;
import dev.schedpolicy.engine.linux.Kernel;
import dev.schedpolicy.engine.policy.PolicyLimits;
import dev.schedpolicy.engine.proc.ProcFs;

import java.nio.file.Path;
import java.time.Duration;

/**
 * Everything a launcher needs from its embedder.
 *
 * @param kernel           the system calls
 * @param proc             /proc, for read-back
 * @param limits           what policy authors may ask for
 * @param groups           makes cgroups for quota/weight/idle
 * @param stateDir         private directory (0700, ours) for the park-and-release shim and handshakes
 * @param handshakeTimeout how long a parked launch may take to report its PID before it is aborted
 */
public record LaunchConfig(Kernel kernel, ProcFs proc, PolicyLimits limits, CpuGroupProvider groups, Path stateDir,
        Duration handshakeTimeout) {
    public static final Duration DEFAULT_HANDSHAKE_TIMEOUT = Duration.ofSeconds(30);

    /** The real kernel, /proc, default limits (nothing may raise priority) and cgroups under the caller's own group. */
    public static LaunchConfig defaults() {
        Kernel kernel = JnaKernel.get();
        return new LaunchConfig(kernel, ProcFs.system(), PolicyLimits.DEFAULT, CgroupGroupProvider.systemDefault(),
                defaultStateDir(kernel), DEFAULT_HANDSHAKE_TIMEOUT);
    }

    public LaunchConfig withLimits(final PolicyLimits value) {
        return new LaunchConfig(kernel, proc, value, groups, stateDir, handshakeTimeout);
    }

    public LaunchConfig withGroups(final CpuGroupProvider value) {
        return new LaunchConfig(kernel, proc, limits, value, stateDir, handshakeTimeout);
    }

    public LaunchConfig withStateDir(final Path value) {
        return new LaunchConfig(kernel, proc, limits, groups, value, handshakeTimeout);
    }

    public LaunchConfig withHandshakeTimeout(final Duration value) {
        return new LaunchConfig(kernel, proc, limits, groups, stateDir, value);
    }

    /** Per user, so one user's shim can never be swapped by another's, and never one another user could pre-create. */
    static Path defaultStateDir(final Kernel kernel) {
        return StateDirs.choose(kernel.geteuid(), System.getenv(), Path.of(System.getProperty("java.io.tmpdir")));
    }
}
