package dev.schedpolicy.engine.launch;

import dev.schedpolicy.engine.policy.OnUnsupported;
import dev.schedpolicy.engine.policy.Policy;

import java.util.List;

/** Turns a read-back that disagrees with the request into an error, or a warning under on-unsupported=warn. */
final class ReadBackVerdicts {
    private ReadBackVerdicts() {
    }

    static void check(final AppliedPolicy applied, final Policy policy, final List<String> warnings) {
        if (applied.matches()) {
            return;
        }
        String message = "the kernel reports " + String.join("; ", applied.mismatches()) + " for " + applied.readFrom()
                + " " + applied.pid() + " after applying '" + policy.toCompact() + "'";
        if (policy.onUnsupported() == OnUnsupported.FAIL) {
            throw new PolicyApplyException(message);
        }
        if (!warnings.contains(message)) {
            warnings.add(message);
        }
    }
}
