package dev.schedpolicy.engine.launch;

import dev.schedpolicy.engine.policy.Policy;
import dev.schedpolicy.engine.proc.OnlineCpus;

/** The checks every launch makes before it changes anything: the embedder's limits, the
 * caller's own priority (never more favoured than the caller), and what this machine has. */
final class MachineFit {
    private MachineFit() {
    }

    static void check(final LaunchConfig config, final Policy policy) {
        config.limits().check(policy, Runtime.getRuntime().availableProcessors(), Caller.priority(config));
        policy.cpus().ifPresent(c -> c.requireWithin(OnlineCpus.system()));
    }
}
