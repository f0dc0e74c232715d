package dev.schedpolicy.cli;

import dev.schedpolicy.engine.cgroup.CgroupSystem;
import dev.schedpolicy.engine.launch.CgroupGroupProvider;
import dev.schedpolicy.engine.launch.LaunchConfig;
import dev.schedpolicy.engine.policy.Policy;
import dev.schedpolicy.engine.policy.PolicyLimits;
import dev.schedpolicy.engine.policy.StructuredPolicy;
import picocli.CommandLine.Model.CommandSpec;

import java.nio.file.Path;
import java.util.Optional;

import static dev.schedpolicy.cli.CodedOptions.flag;
import static dev.schedpolicy.cli.CodedOptions.isSet;
import static dev.schedpolicy.cli.CodedOptions.number;
import static dev.schedpolicy.cli.CodedOptions.text;
import static dev.schedpolicy.cli.CodedOptions.value;

/**
 * The policy options of run and probe, turned into one engine {@link Policy} and launch configuration. Declared
 * in code, not with picocli annotations, because they are on run's start-up path (see {@link RunCommand}). Plain
 * options, not an argument group: picocli then refuses a repeated option with its own clear message.
 */
final class PolicyOptions {
    private String policy;
    private Integer nice;
    private String io;
    private Integer cpuQuota;
    private Integer cpuWeight;
    private boolean cpuIdle;
    private String cpus;
    private String onUnsupported;
    private boolean allowRaise;
    private String cgroupParent;

    private PolicyOptions() {
    }

    /** Adds the policy options to {@code spec}. */
    static void declare(final CommandSpec spec) {
        spec.addOption(text("--policy", "POLICY",
                "normal, batch or idle, or the compact form, e.g. batch+nice19 or nice10+io-idle+quota50"));
        spec.addOption(number("--nice", "N", "nice value 0..19 (19 is the lowest priority), never below the caller's own"));
        spec.addOption(text("--io", "CLASS", "I/O priority: idle or be:N with N 4..7 (7 lowest)"));
        spec.addOption(number("--cpu-quota", "PCT", "cgroup CPU quota in percent of one CPU, e.g. 50 or 150"));
        spec.addOption(number("--cpu-weight", "W", "cgroup CPU weight 1..10000 (100 is the default)"));
        spec.addOption(flag("--cpu-idle", "put the command in a cgroup with cpu.idle=1"));
        spec.addOption(text("--cpus", "LIST", "CPU affinity, as in taskset -c: 0, 0-1, 0,2-3"));
        spec.addOption(text("--on-unsupported", "fail|warn",
                "what to do when part of the policy cannot be applied here (default: fail)"));
        spec.addOption(flag("--allow-raise",
                "allow realtime classes, negative nice, raised I/O priority and more than the caller has (root only)"));
        spec.addOption(text("--cgroup-parent", "DIR",
                "cgroup directory to create launch groups under (default: this process's own cpu cgroup)"));
    }

    /** The values parsed into the options {@link #declare} added to {@code spec}. */
    static PolicyOptions parsed(final CommandSpec spec) {
        PolicyOptions o = new PolicyOptions();
        o.policy = value(spec, "--policy");
        o.nice = value(spec, "--nice");
        o.io = value(spec, "--io");
        o.cpuQuota = value(spec, "--cpu-quota");
        o.cpuWeight = value(spec, "--cpu-weight");
        o.cpuIdle = isSet(spec, "--cpu-idle");
        o.cpus = value(spec, "--cpus");
        o.onUnsupported = value(spec, "--on-unsupported");
        o.allowRaise = isSet(spec, "--allow-raise");
        o.cgroupParent = value(spec, "--cgroup-parent");
        return o;
    }

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
