package dev.schedpolicy.engine.bench;

import dev.schedpolicy.engine.cgroup.CgroupSystem;
import dev.schedpolicy.engine.launch.CgroupGroupProvider;
import dev.schedpolicy.engine.launch.LaunchConfig;
import dev.schedpolicy.engine.launch.PolicedProcess;
import dev.schedpolicy.engine.launch.PolicyThreadLauncher;
import dev.schedpolicy.engine.policy.Policy;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** Starts every workload through the engine's policy-thread launcher, so the kernel read-back is in the report. */
public final class EngineStarter implements ProcessStarter {
    private final LaunchConfig config;
    private final PolicyThreadLauncher launcher;
    private volatile CgroupSystem cgroups;

    public EngineStarter(final LaunchConfig config) {
        this.config = config;
        this.launcher = new PolicyThreadLauncher(config);
    }

    public static EngineStarter defaults() {
        return new EngineStarter(LaunchConfig.defaults());
    }

    @Override
    public Started start(final ProcessBuilder builder, final BenchPolicy policy) throws IOException {
        return start(builder, policy, Optional.empty());
    }

    @Override
    public Started start(final ProcessBuilder builder, final BenchPolicy policy, final Optional<Path> cgroupParent)
            throws IOException {
        Policy p = policy.isDefault() ? Policy.DEFAULT : Policy.parse(policy.compact());
        PolicedProcess pp = launcherFor(p, cgroupParent).start(builder, p);
        return new Started() {
            @Override
            public Process process() {
                return pp.process();
            }

            @Override
            public String applied() {
                return pp.applied().describe();
            }

            @Override
            public List<String> warnings() {
                return pp.warnings();
            }

            @Override
            public Optional<Throttling> throttling() {
                return pp.cgroupUsage().map(u -> new Throttling(u.nrPeriods(), u.nrThrottled(), u.throttledUsec()));
            }

            @Override
            public void close() {
                pp.destroyTree();
            }
        };
    }

    private PolicyThreadLauncher launcherFor(final Policy policy, final Optional<Path> cgroupParent) {
        if (cgroupParent.isEmpty() || !policy.needsCgroup()) {
            return launcher;
        }
        CgroupSystem system = cgroups;
        if (system == null) {
            system = CgroupSystem.detect();
            cgroups = system;
        }
        return new PolicyThreadLauncher(config.withGroups(new CgroupGroupProvider(system, cgroupParent)));
    }

    @Override
    public void validate(final String label) {
        BenchPolicy p = BenchPolicy.of(label, 2);
        if (!p.isDefault()) {
            Policy.parse(p.compact());
        }
    }
}
