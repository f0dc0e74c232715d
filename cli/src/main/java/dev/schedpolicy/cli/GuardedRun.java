package dev.schedpolicy.cli;

import dev.schedpolicy.engine.guard.GuardHomes;
import dev.schedpolicy.engine.guard.GuardLoop;
import dev.schedpolicy.engine.guard.GuardSettings;
import dev.schedpolicy.engine.guard.Lowerings;
import dev.schedpolicy.engine.guard.SameUserCompetitors;
import dev.schedpolicy.engine.launch.LaunchConfig;

import java.io.PrintWriter;
import java.util.Set;

/**
 * {@code run --guard}: while the command runs, the caller's other busy processes yield to it whenever it waits for a
 * CPU (the engine's {@link GuardLoop}); at the end, one report on stderr and everything put back.
 */
final class GuardedRun implements AutoCloseable {
    private final GuardLoop loop;
    private boolean reported;

    private GuardedRun(final GuardLoop loop) {
        this.loop = loop;
    }

    /** Checks a threshold given on the command line: a whole percent of the command's runnable time. */
    static GuardSettings settings(final Integer thresholdPercent) {
        if (thresholdPercent == null) {
            return GuardSettings.defaults();
        }
        if (thresholdPercent < 1 || thresholdPercent > 99) {
            throw new UsageException("--guard-threshold must be 1..99 (percent of the command's runnable time spent"
                    + " waiting for a CPU), got " + thresholdPercent);
        }
        return GuardSettings.defaults().withWaitThreshold(thresholdPercent / 100.0);
    }

    /**
     * Starts guarding the launched command; null, after one line on {@code err}, when nothing here can lower other
     * processes (then the command runs unguarded, as it would without the option).
     */
    static GuardedRun start(final long pid, final LaunchConfig config, final GuardSettings settings, final PrintWriter err) {
        Lowerings lowerings = Lowerings.available(config.kernel(), config.proc(), GuardHomes.in(config));
        if (lowerings.none()) {
            err.println("schedpolicy: guard: nothing here can lower other processes (" + String.join("; ", lowerings.missing())
                    + "): the command runs unguarded");
            err.flush();
            return null;
        }
        long self = ProcessHandle.current().pid();
        SameUserCompetitors competitors = new SameUserCompetitors(config.proc(), config.kernel().geteuid(),
                settings.busyShare(), self);
        return new GuardedRun(new GuardLoop(config.proc(), pid, competitors, lowerings.lowerings(), settings, Set.of(self)).start());
    }

    void report(final PrintWriter err) {
        reported = true;
        for (String line : loop.finish().describe()) {
            err.println("schedpolicy: guard: " + line);
        }
        err.flush();
    }

    @Override
    public void close() {
        if (!reported) {
            loop.close();
        }
    }
}
