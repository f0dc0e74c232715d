package dev.schedpolicy.jenkins;

import dev.schedpolicy.engine.agent.LaunchRecord;
import dev.schedpolicy.engine.agent.PreparedLaunch;
import hudson.AbortException;
import hudson.Launcher;
import hudson.Proc;
import hudson.remoting.VirtualChannel;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Runs every launch through the engine's park-and-release: asks the agent for a parked handshake,
 * prepends its shim to the command, lets the inner launcher start it, then asks the agent to apply,
 * verify and release. {@code kill} and everything else are forwarded by {@link Launcher.DecoratedLauncher}.
 *
 * <p>Several of these can wrap one launcher (agent default inside, blocks outside). The outermost
 * one carries the policy already merged with the inner layers (the agent merged them at block
 * start), so it marks the launch with {@value #MARKER} and inner ones let marked launches through.
 */
final class PolicedLauncher extends Launcher.DecoratedLauncher {
    /** Environment variable naming the launch's handshake; also tells the build which launch it is. */
    static final String MARKER = "SCHEDPOLICY_LAUNCH";

    private final LaunchSettings settings;

    PolicedLauncher(final Launcher inner, final LaunchSettings settings) {
        super(inner);
        this.settings = settings;
    }

    LaunchSettings settings() {
        return settings;
    }

    @Override
    public Proc launch(final ProcStarter starter) throws IOException {
        VirtualChannel channel = getChannel();
        if (!isUnix() || channel == null || isMarked(starter.envs()) || starter.cmds() == null || starter.cmds().isEmpty()) {
            return super.launch(starter);
        }
        PreparedLaunch prepared = call(channel, new AgentCalls.Prepare(settings));
        starter.cmds(prepared.prefix(starter.cmds()));
        starter.masks(prepared.prefixMasks(starter.masks()));
        starter.envs(withMarker(starter.envs(), prepared.id()));
        Proc proc;
        try {
            proc = super.launch(starter);
        } catch (IOException | RuntimeException e) {
            abortQuietly(channel, prepared.id(), "Jenkins could not start the command: " + e.getMessage());
            throw e;
        }
        LaunchRecord record;
        try {
            record = channel.call(new AgentCalls.Release(prepared.id(), settings.timeoutSeconds()));
        } catch (InterruptedException e) {
            abortQuietly(channel, prepared.id(), "the build was interrupted");
            killQuietly(proc);
            throw (IOException) new InterruptedIOException("interrupted while applying " + settings.policy()).initCause(e);
        } catch (RuntimeException e) {
            // the engine refused under on-unsupported=fail: the shim exits 125 without running the command
            killQuietly(proc);
            throw new AbortException("[schedpolicy] " + settings.policy() + " could not be applied: " + e.getMessage());
        }
        getListener().getLogger().println("[schedpolicy] " + settings.policy() + ": " + record.describe());
        for (String w : record.warnings()) {
            getListener().getLogger().println("[schedpolicy] warning: " + w);
        }
        SchedPolicyAction.recordLaunch(settings.runId(), settings.blockKey(), record);
        return proc;
    }

    @Override
    public void kill(final Map<String, String> modelEnvVars) throws IOException, InterruptedException {
        super.kill(modelEnvVars);
    }

    static boolean isMarked(final String[] envs) {
        return Arrays.stream(envs).anyMatch(e -> e.startsWith(MARKER + "="));
    }

    private static String[] withMarker(final String[] envs, final String id) {
        List<String> all = new ArrayList<>(Arrays.asList(envs));
        all.add(MARKER + "=" + id);
        return all.toArray(new String[0]);
    }

    private static <V> V call(final VirtualChannel channel, final jenkins.security.MasterToSlaveCallable<V, RuntimeException> c)
            throws IOException {
        try {
            return channel.call(c);
        } catch (InterruptedException e) {
            throw (IOException) new InterruptedIOException("interrupted while preparing the launch").initCause(e);
        } catch (RuntimeException e) {
            throw new AbortException("[schedpolicy] cannot prepare the launch: " + e.getMessage());
        }
    }

    private static void abortQuietly(final VirtualChannel channel, final String id, final String reason) {
        try {
            channel.call(new AgentCalls.Abort(id, reason));
        } catch (IOException | InterruptedException | RuntimeException e) {
            // the agent's registry aborts unreleased launches on its own after the timeout
        }
    }

    private static void killQuietly(final Proc proc) {
        try {
            proc.kill();
        } catch (IOException | InterruptedException e) {
            // the shim exits 125 by itself when the release was refused
        }
    }
}
