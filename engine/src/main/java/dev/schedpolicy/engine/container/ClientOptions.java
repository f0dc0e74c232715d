package dev.schedpolicy.engine.container;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The options of {@code run}, {@code create}, {@code exec} and {@code build} that the parser knows, and whether each takes a value.
 * An option missing here is not guessed at: taking it for a valued one swallowed the next option (a later
 * {@code --cgroup-parent=/} then went unseen), taking it for a flag would read its value as the image. The docker
 * lists are {@code docker run|create|exec --help} of Docker 28.2 (plus the hidden aliases --net, --net-alias); the
 * podman ones are podman 5's man pages (podman-run(1), podman-exec(1)). Anything written {@code --name=value} is read
 * whether known or not.
 */
final class ClientOptions {
    enum Kind {
        FLAG, VALUED
    }

    private static final Set<String> DOCKER_RUN_FLAGS = Set.of("--detach", "--disable-content-trust", "--help", "--init",
            "--interactive", "--no-healthcheck", "--oom-kill-disable", "--privileged", "--publish-all", "--quiet", "--read-only",
            "--rm", "--sig-proxy", "--tty", "--use-api-socket");
    private static final Set<String> DOCKER_RUN_VALUED = Set.of("--add-host", "--annotation", "--attach", "--blkio-weight",
            "--blkio-weight-device", "--cap-add", "--cap-drop", "--cgroup-parent", "--cgroupns", "--cidfile", "--cpu-count",
            "--cpu-percent", "--cpu-period", "--cpu-quota", "--cpu-rt-period", "--cpu-rt-runtime", "--cpu-shares", "--cpus",
            "--cpuset-cpus", "--cpuset-mems", "--detach-keys", "--device", "--device-cgroup-rule", "--device-read-bps",
            "--device-read-iops", "--device-write-bps", "--device-write-iops", "--dns", "--dns-option", "--dns-search",
            "--domainname", "--entrypoint", "--env", "--env-file", "--expose", "--gpus", "--group-add", "--health-cmd",
            "--health-interval", "--health-retries", "--health-start-interval", "--health-start-period", "--health-timeout",
            "--hostname", "--io-maxbandwidth", "--io-maxiops", "--ip", "--ip6", "--ipc", "--isolation", "--kernel-memory", "--label",
            "--label-file", "--link", "--link-local-ip", "--log-driver", "--log-opt", "--mac-address", "--memory",
            "--memory-reservation", "--memory-swap", "--memory-swappiness", "--mount", "--name", "--network", "--network-alias",
            "--oom-score-adj", "--pid", "--pids-limit", "--platform", "--publish", "--pull", "--restart", "--runtime",
            "--security-opt", "--shm-size", "--stop-signal", "--stop-timeout", "--storage-opt", "--sysctl", "--tmpfs", "--ulimit",
            "--user", "--userns", "--uts", "--volume", "--volume-driver", "--volumes-from", "--workdir", "--net", "--net-alias");
    private static final Set<String> PODMAN_RUN_FLAGS = Set.of("--detach", "--disable-content-trust", "--env-host", "--help",
            "--http-proxy", "--init", "--interactive", "--no-healthcheck", "--no-hostname", "--no-hosts", "--oom-kill-disable",
            "--passwd", "--privileged", "--publish-all", "--quiet", "--read-only", "--read-only-tmpfs", "--replace", "--rm", "--rmi",
            "--rootfs", "--sig-proxy", "--tls-verify", "--tty", "--unsetenv-all");
    private static final Set<String> PODMAN_RUN_VALUED = union(DOCKER_RUN_VALUED, Set.of("--arch", "--authfile", "--cert-dir",
            "--cgroup-conf", "--cgroups", "--chrootdirs", "--conmon-pidfile", "--creds", "--decryption-key", "--dns-opt",
            "--env-merge", "--gidmap", "--group-entry", "--health-log-destination", "--health-max-log-count", "--health-max-log-size",
            "--health-on-failure", "--health-startup-cmd", "--health-startup-interval", "--health-startup-retries",
            "--health-startup-success", "--health-startup-timeout", "--hostuser", "--image-volume", "--init-path", "--log-opt", "--os",
            "--passwd-entry", "--personality", "--pidfile", "--pod", "--pod-id-file", "--preserve-fd", "--preserve-fds",
            "--requires", "--retry", "--retry-delay", "--sdnotify", "--seccomp-policy", "--secret", "--shm-size-systemd",
            "--subgidname", "--subuidname", "--systemd", "--timeout", "--tz", "--uidmap", "--umask", "--unsetenv", "--variant"));
    private static final Set<String> DOCKER_EXEC_FLAGS = Set.of("--detach", "--interactive", "--privileged", "--tty", "--help");
    private static final Set<String> DOCKER_EXEC_VALUED = Set.of("--detach-keys", "--env", "--env-file", "--user", "--workdir");
    private static final Set<String> PODMAN_EXEC_FLAGS = union(DOCKER_EXEC_FLAGS, Set.of("--latest"));
    private static final Set<String> PODMAN_EXEC_VALUED = union(DOCKER_EXEC_VALUED, Set.of("--preserve-fd", "--preserve-fds"));

    /**
     * {@code docker build --help} of Docker 28.2 without buildx (the classic builder's) and of Docker 20.10 with its own
     * BuildKit options (--output, --progress, --secret, --ssh).
     */
    private static final Set<String> DOCKER_BUILD_FLAGS = Set.of("--compress", "--disable-content-trust", "--force-rm", "--help",
            "--no-cache", "--pull", "--quiet", "--rm", "--squash");
    private static final Set<String> DOCKER_BUILD_VALUED = Set.of("--add-host", "--build-arg", "--cache-from", "--cgroup-parent",
            "--cpu-period", "--cpu-quota", "--cpu-shares", "--cpuset-cpus", "--cpuset-mems", "--file", "--iidfile", "--isolation",
            "--label", "--memory", "--memory-swap", "--network", "--output", "--platform", "--progress", "--secret", "--security-opt",
            "--shm-size", "--ssh", "--tag", "--target", "--ulimit");
    /** {@code podman build --help} of podman 4.3; a bare --pull is its flag form ("--pull=always" is read as any --name=value). */
    private static final Set<String> PODMAN_BUILD_FLAGS = union(DOCKER_BUILD_FLAGS, Set.of("--all-platforms",
            "--disable-compression", "--http-proxy", "--identity-label", "--layers", "--logsplit", "--no-hosts", "--omit-history",
            "--skip-unused-stages", "--squash-all", "--stdin", "--tls-verify"));
    private static final Set<String> PODMAN_BUILD_VALUED = union(DOCKER_BUILD_VALUED, Set.of("--annotation", "--arch", "--authfile",
            "--build-context", "--cache-to", "--cache-ttl", "--cap-add", "--cap-drop", "--cert-dir", "--cgroupns", "--cpp-flag",
            "--creds", "--decryption-key", "--device", "--dns", "--dns-option", "--dns-search", "--env", "--format", "--from",
            "--hooks-dir", "--ignorefile", "--ipc", "--jobs", "--logfile", "--manifest", "--os", "--os-feature", "--os-version",
            "--pid", "--retry", "--retry-delay", "--runtime-flag", "--sign-by", "--timestamp", "--unsetenv", "--userns",
            "--userns-gid-map", "--userns-gid-map-group", "--userns-uid-map", "--userns-uid-map-user", "--uts", "--variant",
            "--volume"));
    private static final Map<Character, String> DOCKER_BUILD_SHORT = Map.of('c', "--cpu-shares", 'f', "--file", 'm', "--memory",
            'o', "--output", 'q', "--quiet", 't', "--tag");
    private static final Map<Character, String> PODMAN_BUILD_SHORT = with(with(DOCKER_BUILD_SHORT, 'v', "--volume"), 'D',
            "--disable-compression");

    private static final Map<Character, String> RUN_SHORT = Map.ofEntries(Map.entry('a', "--attach"), Map.entry('c', "--cpu-shares"),
            Map.entry('d', "--detach"), Map.entry('e', "--env"), Map.entry('h', "--hostname"), Map.entry('i', "--interactive"),
            Map.entry('l', "--label"), Map.entry('m', "--memory"), Map.entry('p', "--publish"), Map.entry('P', "--publish-all"),
            Map.entry('q', "--quiet"), Map.entry('t', "--tty"), Map.entry('u', "--user"), Map.entry('v', "--volume"),
            Map.entry('w', "--workdir"));
    private static final Map<Character, String> DOCKER_EXEC_SHORT = Map.of('d', "--detach", 'e', "--env", 'i', "--interactive",
            't', "--tty", 'u', "--user", 'w', "--workdir");
    private static final Map<Character, String> PODMAN_EXEC_SHORT = with(DOCKER_EXEC_SHORT, 'l', "--latest");

    private ClientOptions() {
    }

    /** Whether {@code longName} takes a value, or empty when it is not an option of this subcommand that we know. */
    static Optional<Kind> kindOf(final ContainerRuntime runtime, final ContainerAction action, final String longName) {
        boolean podman = runtime == ContainerRuntime.PODMAN;
        Set<String> flags = switch (action) {
            case EXEC -> podman ? PODMAN_EXEC_FLAGS : DOCKER_EXEC_FLAGS;
            case BUILD -> podman ? PODMAN_BUILD_FLAGS : DOCKER_BUILD_FLAGS;
            case RUN, CREATE -> podman ? PODMAN_RUN_FLAGS : DOCKER_RUN_FLAGS;
        };
        Set<String> valued = switch (action) {
            case EXEC -> podman ? PODMAN_EXEC_VALUED : DOCKER_EXEC_VALUED;
            case BUILD -> podman ? PODMAN_BUILD_VALUED : DOCKER_BUILD_VALUED;
            case RUN, CREATE -> podman ? PODMAN_RUN_VALUED : DOCKER_RUN_VALUED;
        };
        if (flags.contains(longName)) {
            return Optional.of(Kind.FLAG);
        }
        return valued.contains(longName) ? Optional.of(Kind.VALUED) : Optional.empty();
    }

    /** The long name of a one-letter option, or empty when this subcommand has no such option that we know. */
    static Optional<String> longNameOf(final ContainerRuntime runtime, final ContainerAction action, final char c) {
        boolean podman = runtime == ContainerRuntime.PODMAN;
        Map<Character, String> names = switch (action) {
            case EXEC -> podman ? PODMAN_EXEC_SHORT : DOCKER_EXEC_SHORT;
            case BUILD -> podman ? PODMAN_BUILD_SHORT : DOCKER_BUILD_SHORT;
            case RUN, CREATE -> RUN_SHORT;
        };
        return Optional.ofNullable(names.get(c));
    }

    /** Options whose values are the container's or the build's environment: never kept, never shown (they carry credentials). */
    static boolean isEnvironment(final String longName) {
        return "--env".equals(longName) || "--build-arg".equals(longName);
    }

    private static Set<String> union(final Set<String> a, final Set<String> b) {
        java.util.HashSet<String> all = new java.util.HashSet<>(a);
        all.addAll(b);
        return Set.copyOf(all);
    }

    private static Map<Character, String> with(final Map<Character, String> base, final char c, final String name) {
        Map<Character, String> all = new HashMap<>(base);
        all.put(c, name);
        return Map.copyOf(all);
    }
}
