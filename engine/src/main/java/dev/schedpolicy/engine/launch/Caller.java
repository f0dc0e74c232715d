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
        Object[] outcome = new Object[1];
        Thread thread = new Thread(() -> {
            try {
                takeMainThreadSignalMask(config);
                outcome[0] = builder.start();
            } catch (IOException | RuntimeException | Error e) {
                outcome[0] = e;
            }
        }, "schedpolicy-spawn");
        thread.setDaemon(true);
        thread.start();
        joinUninterruptibly(thread);
        if (outcome[0] instanceof IOException e) {
            throw e;
        }
        if (outcome[0] instanceof RuntimeException e) {
            throw e;
        }
        if (outcome[0] instanceof Error e) {
            throw e;
        }
        return (Process) outcome[0];
    }

    /** The spawn must finish or fail on its own: abandoning it could leak the child. Restores the interrupt flag. */
    static void joinUninterruptibly(final Thread thread) {
        boolean interrupted = false;
        while (true) {
            try {
                thread.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
