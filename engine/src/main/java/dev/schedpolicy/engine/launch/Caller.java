package dev.schedpolicy.engine.launch;

import dev.schedpolicy.engine.linux.SchedAttr;
import dev.schedpolicy.engine.policy.CallerPriority;

import java.io.IOException;
import java.util.OptionalLong;

/**
 * The process that embeds the engine, as its launches see it. Its main thread (TID = PID: the java launcher's
 * primordial thread) keeps the priority and the signal mask it was started with; Java threads block SIGQUIT,
 * and a child inherits its spawning thread's mask, so launches spawn with the main thread's mask instead.
 */
final class Caller {
    private Caller() {
    }

    static CallerPriority priority(final LaunchConfig config) {
        int pid = (int) ProcessHandle.current().pid();
        SchedAttr attr = config.kernel().getSchedAttr(pid);
        return new CallerPriority(attr.policy(), attr.priority(), attr.nice(), config.kernel().getIoPriority(pid));
    }

    /** Gives the calling thread the main thread's signal mask; call it only on a thread that dies after the spawn. */
    static void takeMainThreadSignalMask(final LaunchConfig config) {
        long pid = ProcessHandle.current().pid();
        config.kernel().setSignalMask(config.proc().signalSet(pid, OptionalLong.of(pid), "SigBlk").orElse(0));
    }

    /** {@code builder.start()} from a fresh thread with the main thread's signal mask, so the child gets a normal one. */
    static Process spawn(final LaunchConfig config, final ProcessBuilder builder) throws IOException {
        return FreshThread.run("schedpolicy-spawn", () -> {
            takeMainThreadSignalMask(config);
            return builder.start();
        });
    }
}
