package dev.schedpolicy.cli;

import dev.schedpolicy.engine.launch.WarningBrief;

import java.io.PrintWriter;
import java.util.List;

/**
 * {@code run}'s warnings on stderr: one short line each (the engine's {@link WarningBrief}), where they are read as the
 * command runs, and one line saying where the rest is; in full with {@code --verbose}.
 */
final class RunWarnings {
    private final PrintWriter err;
    private final boolean verbose;
    private boolean hinted;

    RunWarnings(final PrintWriter err, final boolean verbose) {
        this.err = err;
        this.verbose = verbose;
    }

    void print(final List<String> warnings) {
        boolean shortened = false;
        for (String w : warnings) {
            err.println("schedpolicy: warning: " + (verbose ? w : WarningBrief.of(w)));
            shortened |= !verbose && WarningBrief.shortens(w);
        }
        if (shortened && !hinted) {
            err.println("schedpolicy: (--verbose prints the warnings in full; docs/usage.md says what they mean)");
            hinted = true;
        }
    }
}
