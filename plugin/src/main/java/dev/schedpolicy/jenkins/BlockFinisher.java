package dev.schedpolicy.jenkins;

import dev.schedpolicy.engine.agent.BlockRecord;
import dev.schedpolicy.engine.agent.UsageRecord;
import edu.umd.cs.findbugs.annotations.NonNull;
import hudson.Extension;
import hudson.model.AbstractBuild;
import hudson.model.Computer;
import hudson.model.Node;
import hudson.model.Run;
import hudson.model.TaskListener;
import hudson.model.listeners.RunListener;
import hudson.remoting.VirtualChannel;
import java.io.IOException;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Ends a freestyle build's policy block once the build has completed, publishers included (core fires
 * {@code onCompleted} after post-build steps). A build that failed before its wrappers' set-up (a
 * checkout failure) never tears its environment down, so this is the one place that always runs.
 * Idempotent: a finished block is left alone.
 */
@Extension
public class BlockFinisher extends RunListener<Run<?, ?>> {
    private static final Logger LOGGER = Logger.getLogger(BlockFinisher.class.getName());

    @Override
    public void onCompleted(final Run<?, ?> run, @NonNull final TaskListener listener) {
        SchedPolicyAction action = run.getAction(SchedPolicyAction.class);
        if (action == null || !(run instanceof AbstractBuild<?, ?> build)) {
            return;
        }
        Node node = build.getBuiltOn();
        Computer computer = node == null ? null : node.toComputer();
        VirtualChannel channel = computer == null ? null : computer.getChannel();
        for (BlockRecord b : action.getBlocks()) {
            if (!SchedPolicyWrapper.KIND.equals(b.kind()) || b.isFinished()) {
                continue;
            }
            try {
                UsageRecord usage = channel == null ? UsageRecord.NONE : channel.call(new AgentCalls.FinishBlock(b.blockKey(), b.cgroupPaths()));
                action.finishBlock(b.blockKey(), usage);
                if (usage.groups() > 0) {
                    listener.getLogger().println(Messages.Console_buildUsage(usage.describe()));
                }
            } catch (IOException | RuntimeException e) {
                LOGGER.log(Level.WARNING, "cannot end the Sched Policy block of " + run, e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
