package dev.schedpolicy.engine.probe;

import dev.schedpolicy.engine.launch.LaunchConfig;
import dev.schedpolicy.engine.launch.PolicedProcess;
import dev.schedpolicy.engine.launch.PolicyApplyException;
import dev.schedpolicy.engine.launch.PolicyThreadLauncher;
import dev.schedpolicy.engine.policy.InvalidPolicyException;
import dev.schedpolicy.engine.policy.Policy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Answers "what would run do with this policy here?" by doing it: a scratch {@code cat} is launched with the
 * same launcher, limits, caller rule and cgroup parent as {@code run}, then killed. The capability table tries
 * generic parts (nice 19, idle, ...); only a trial of the policy itself can be as exact as run.
 *
 * @param outcome  what run would do
 * @param detail   run's message when it would not apply the policy, or what the kernel reports when it would
 * @param warnings parts skipped under on-unsupported=warn
 */
public record PolicyTrial(Outcome outcome, String detail, List<String> warnings) {
    /** What {@code run} would do. */
    public enum Outcome {
        /** run applies it and starts the command. */
        APPLIED,
        /** run refuses it before trying (limits, or more than the caller has): exit 2. */
        REFUSED,
        /** run tries and cannot apply it, so the command would not run: exit 125. */
        NOT_APPLIED
    }

    public PolicyTrial {
        warnings = List.copyOf(warnings);
    }

    public boolean applied() {
        return outcome == Outcome.APPLIED;
    }

    public static PolicyTrial of(final Policy policy, final LaunchConfig config) {
        PolicedProcess p;
        try {
            // cat on a pipe from this JVM, not a sleep: should the JVM die mid-trial (an agent stopped while it
            // probes), the pipe closes and the scratch process ends at once instead of running on in its group
            p = new PolicyThreadLauncher(config).start(new ProcessBuilder("cat")
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD), policy);
        } catch (InvalidPolicyException e) {
            return new PolicyTrial(Outcome.REFUSED, e.getMessage(), List.of());
        } catch (PolicyApplyException e) {
            return new PolicyTrial(Outcome.NOT_APPLIED, e.getMessage(), List.of());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the probe's scratch process (cat): " + e.getMessage(), e);
        }
        try {
            return new PolicyTrial(Outcome.APPLIED, p.applied().describe(), p.warnings());
        } finally {
            p.destroyTree();
            try {
                p.process().waitFor(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
