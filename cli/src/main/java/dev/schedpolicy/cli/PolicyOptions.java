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

/** The policy options shared by run and bench, turned into one engine {@link Policy}. */
final class PolicyOptions {
    @Option(names = "--policy", paramLabel = "POLICY",
            description = "normal, batch or idle, or the compact form, e.g. batch+nice19 or nice10+io-idle+quota50")
    String policy;

    @Option(names = "--nice", paramLabel = "N", description = "nice value 0..19 (19 is the lowest priority)")
    Integer nice;

    @Option(names = "--io", paramLabel = "CLASS", description = "I/O priority: idle or be:N with N 4..7 (7 lowest)")
    String io;

    @Option(names = "--cpu-quota", paramLabel = "PCT", description = "cgroup CPU quota in percent of one CPU, e.g. 50 or 150")
    Integer cpuQuota;

    @Option(names = "--cpu-weight", paramLabel = "W", description = "cgroup CPU weight 1..10000 (100 is the default)")
    Integer cpuWeight;

    @Option(names = "--cpu-idle", description = "put the command in a cgroup with cpu.idle=1")
    boolean cpuIdle;

    @Option(names = "--cpus", paramLabel = "LIST", description = "CPU affinity, as in taskset -c: 0, 0-1, 0,2-3")
    String cpus;

    @Option(names = "--on-unsupported", paramLabel = "fail|warn",
            description = "what to do when part of the policy cannot be applied here (default: fail)")
    String onUnsupported;

    @Option(names = "--allow-raise", description = "allow realtime classes, negative nice and raised I/O priority (root only)")
    boolean allowRaise;

    @Option(names = "--cgroup-parent", paramLabel = "DIR",
            description = "cgroup directory to create launch groups under (default: this process's own cpu cgroup)")
    Path cgroupParent;

    Policy toPolicy() {
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
        if (cgroupParent != null) {
            config = config.withGroups(new CgroupGroupProvider(CgroupSystem.detect(), Optional.of(cgroupParent)));
        }
        return config;
    }
}
