package dev.schedpolicy.jenkins;

import edu.umd.cs.findbugs.annotations.CheckForNull;
import hudson.model.Executor;
import hudson.model.Run;
import hudson.remoting.VirtualChannel;
import java.io.IOException;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import jenkins.model.InterruptedBuildAction;
import jenkins.util.Timer;

/**
 * Tells a launch that waits for its policy shim (or its container) that its build was stopped. A Pipeline's
 * {@code sh} launches on the CPS VM thread, which a stop does not interrupt (the stop itself queues behind it on that
 * thread), so without this the launch waited until the shim came or the handshake timed out, and the command then
 * started after the abort. A stop shows at once on the build: {@link Executor#interrupt} records its cause, and a
 * Pipeline moves it into a new {@link InterruptedBuildAction} straight away (the "Aborted by" line); a build that
 * caught an earlier stop and went on is not taken for stopped again, only a new one counts.
 */
final class AbortWatch implements AutoCloseable {
    private static final long PERIOD_MS = 200;
    private static final long ABORT_BOUND_SECONDS = 10;

    @CheckForNull
    private final ScheduledFuture<?> poll;

    private AbortWatch(@CheckForNull final ScheduledFuture<?> poll) {
        this.poll = poll;
    }

    /**
     * Tells the agent behind {@code channel} to abort the launch {@code launchId}, once, if the build {@code run} is
     * stopped before {@link #close}; nothing for a launch of no build.
     */
    static AbortWatch start(@CheckForNull final Run<?, ?> run, final VirtualChannel channel, final String launchId) {
        if (run == null) {
            return new AbortWatch(null);
        }
        Executor executor = run.getExecutor();
        int before = run.getActions(InterruptedBuildAction.class).size();
        AtomicBoolean fired = new AtomicBoolean();
        return new AbortWatch(Timer.get().scheduleWithFixedDelay(() -> {
            boolean stopped = run.getActions(InterruptedBuildAction.class).size() > before
                    || executor != null && !executor.getCausesOfInterruption().isEmpty();
            if (stopped && fired.compareAndSet(false, true)) {
                sendAbort(channel, launchId);
            }
        }, PERIOD_MS, PERIOD_MS, TimeUnit.MILLISECONDS));
    }

    /**
     * An asynchronous call: this runs on jenkins.util.Timer, 10 threads for all of Jenkins, and a blocking call held one
     * for as long as a hung agent did not answer. An answer not back within {@link #ABORT_BOUND_SECONDS} is given up; the
     * agent's registry aborts a launch that is never released by itself.
     */
    private static void sendAbort(final VirtualChannel channel, final String launchId) {
        try {
            Future<Void> answer = channel.callAsync(new AgentCalls.Abort(launchId, "the build was stopped"));
            Timer.get().schedule(() -> answer.cancel(true), ABORT_BOUND_SECONDS, TimeUnit.SECONDS);
        } catch (IOException | RuntimeException e) {
            // the channel is closed: the agent's registry aborts the launch by itself after its pending timeout
        }
    }

    @Override
    public void close() {
        if (poll != null) {
            poll.cancel(false);
        }
    }
}
