package dev.schedpolicy.engine.container;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The container clients whose run/create/exec lines we rewrite or check, with their global options and how to ask
 * the daemon for its cgroup driver (the subcommands' options are in {@link ClientOptions}). Both accept --cgroup-parent, --cpu-shares, --cpus, --cpuset-cpus and --cidfile on run and create.
 */
public enum ContainerRuntime {
    DOCKER("docker", "{{.CgroupDriver}}",
            Set.of("-D", "--debug", "--tls", "--tlsverify", "-v", "--version", "--help"),
            Set.of("-H", "--host", "-c", "--context", "--config", "-l", "--log-level", "--tlscacert", "--tlscert", "--tlskey")),
    PODMAN("podman", "{{.Host.CgroupManager}}",
            Set.of("--remote", "-r", "--debug", "--help", "-v", "--version", "--syslog", "--noout"),
            Set.of("--url", "--connection", "-c", "--identity", "--root", "--runroot", "--cgroup-manager", "--log-level",
                    "--storage-driver", "--storage-opt", "--runtime", "--runtime-flag", "--events-backend", "--network-cmd-path",
                    "--tmpdir", "--config", "--conmon", "--hooks-dir", "--module", "--ssh", "--volumepath", "--imagestore",
                    "--network-config-dir", "--out", "--cdi-spec-dir"));

    private final String program;
    private final String driverFormat;
    private final Set<String> globalFlags;
    private final Set<String> globalValued;

    ContainerRuntime(final String program, final String driverFormat, final Set<String> globalFlags, final Set<String> globalValued) {
        this.program = program;
        this.driverFormat = driverFormat;
        this.globalFlags = globalFlags;
        this.globalValued = globalValued;
    }

    /** The runtime whose client {@code path} is, by its file name (docker, /usr/bin/podman ...). */
    public static Optional<ContainerRuntime> ofProgram(final String path) {
        String name = path.substring(path.lastIndexOf('/') + 1);
        for (ContainerRuntime r : values()) {
            if (r.program.equals(name)) {
                return Optional.of(r);
            }
        }
        return Optional.empty();
    }

    public String program() {
        return program;
    }

    /** The {@code info --format} template that prints the daemon's cgroup driver ("cgroupfs" or "systemd"). */
    String driverFormat() {
        return driverFormat;
    }

    Set<String> globalFlags() {
        return globalFlags;
    }

    Set<String> globalValued() {
        return globalValued;
    }
}
