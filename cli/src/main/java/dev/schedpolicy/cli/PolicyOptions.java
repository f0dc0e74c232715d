package dev.schedpolicy.cli;

import dev.schedpolicy.engine.cgroup.CgroupSystem;
import dev.schedpolicy.engine.launch.CgroupGroupProvider;
import dev.schedpolicy.engine.launch.LaunchConfig;
import dev.schedpolicy.engine.policy.Policy;
import dev.schedpolicy.engine.policy.PolicyLimits;
import dev.schedpolicy.engine.policy.StructuredPolicy;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.Optional;

/**
 * The policy options of run and probe, turned into one engine {@link Policy} and launch configuration. A plain
 * mixin, not an argument group: picocli then refuses a repeated option with its own clear message.
 */
final class PolicyOptions {
    @Option(names = "--policy", paramLabel = "POLICY",
            description = "normal, batch or idle, or the compact form, e.g. batch+nice19 or nice10+io-idle+quota50")
    String policy;

    @Option(names = "--nice", paramLabel = "N", converter = AsciiInteger.class,
            description = "nice value 0..19 (19 is the lowest priority), never below the caller's own")
    Integer nice;

    @Option(names = "--io", paramLabel = "CLASS", description = "I/O priority: idle or be:N with N 4..7 (7 lowest)")
    String io;

    @Option(names = "--cpu-quota", paramLabel = "PCT", converter = AsciiInteger.class,
            description = "cgroup CPU quota in percent of one CPU, e.g. 50 or 150")
    Integer cpuQuota;

    @Option(names = "--cpu-weight", paramLabel = "W", converter = AsciiInteger.class,
            description = "cgroup CPU weight 1..10000 (100 is the default)")
    Integer cpuWeight;

    @Option(names = "--cpu-idle", description = "put the command in a cgroup with cpu.idle=1")
    boolean cpuIdle;

    @Option(names = "--cpus", paramLabel = "LIST", description = "CPU affinity, as in taskset -c: 0, 0-1, 0,2-3")
    String cpus;

    @Option(names = "--on-unsupported", paramLabel = "fail|warn",
            description = "what to do when part of the policy cannot be applied here (default: fail)")
    String onUnsupported;

    @Option(names = "--allow-raise",
            description = "allow realtime classes, negative nice, raised I/O priority and more than the caller has (root only)")
    boolean allowRaise;

    @Option(names = "--cgroup-parent", paramLabel = "DIR",
            description = "cgroup directory to create launch groups under (default: this process's own cpu cgroup)")
    String cgroupParent;

    /** Whether any policy option was given. */
    boolean given() {
        return policy != null || nice != null || io != null || cpuQuota != null || cpuWeight != null || cpuIdle || cpus != null
                || onUnsupported != null;
    }

    Policy toPolicy() {
        // an empty value (an unset $POLICY in a script) must not run the command unpoliced
        refuseEmpty("--policy", policy, "a policy such as idle or batch+nice19");
        refuseEmpty("--io", io, "idle or be:N with N 4..7");
        refuseEmpty("--cpus", cpus, "a CPU list such as 0 or 0-1");
        refuseEmpty("--on-unsupported", onUnsupported, "fail or warn");
        return StructuredPolicy.of(policy, nice, io, cpuQuota, cpuWeight, cpuIdle ? Boolean.TRUE : null, cpus, onUnsupported);
    }

    LaunchConfig launchConfig() {
        LaunchConfig config = LaunchConfig.defaults();
        if (allowRaise) {
            if (config.kernel().geteuid() != 0) {
                throw new UsageException("--allow-raise is for root only; without it, policies can only lower priority");
            }
            config = config.withLimits(PolicyLimits.raising());
        }
        Optional<Path> parent = cgroupParent();
        if (parent.isPresent()) {
            config = config.withGroups(new CgroupGroupProvider(CgroupSystem.detect(), parent));
        }
        return config;
    }

    /** The --cgroup-parent directory, made absolute against the current directory like any other path argument. */
    Optional<Path> cgroupParent() {
        refuseEmpty("--cgroup-parent", cgroupParent, "a cgroup directory such as /sys/fs/cgroup/cpu/builds");
        return Optional.ofNullable(cgroupParent).map(p -> Path.of(p).toAbsolutePath().normalize());
    }

    private static void refuseEmpty(final String option, final String value, final String allowed) {
        if (value != null && value.isBlank()) {
            throw new UsageException(option + " is empty; give " + allowed + ", or leave the option out");
        }
    }
}
