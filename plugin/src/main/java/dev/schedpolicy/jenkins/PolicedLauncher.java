package dev.schedpolicy.jenkins;

import dev.schedpolicy.engine.agent.AbortedLaunchException;
import dev.schedpolicy.engine.agent.LaunchRecord;
import dev.schedpolicy.engine.agent.PreparedLaunch;
import dev.schedpolicy.engine.buildpage.LaunchMarks;
import edu.umd.cs.findbugs.annotations.CheckForNull;
import edu.umd.cs.findbugs.annotations.NonNull;
import hudson.AbortException;
import hudson.FilePath;
import hudson.Launcher;
import hudson.Proc;
import hudson.model.Run;
import hudson.remoting.Channel;
import hudson.remoting.VirtualChannel;
import hudson.util.DaemonThreadFactory;
import hudson.util.NamingThreadFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import jenkins.tasks.filters.EnvVarsFilterableBuilder;

/**
 * Runs every launch through the engine's park-and-release: asks the agent for a parked handshake,
 * prepends its shim to the command, lets the inner launcher start it, then asks the agent to apply,
 * verify and release. Every way {@link Launcher.DecoratedLauncher} would forward a launch straight to
 * the inner launcher (the deprecated {@code launch(String[], ...)} overloads, {@code launchChannel}) is
 * policed too, and the environment filter rules prepared on this launcher reach the inner one.
 *
 * <p>Several of these can wrap one launcher (agent default inside, blocks outside). The outermost
 * one carries the policy already merged with the inner layers, claims the launch by identity
 * ({@link LaunchMarks}) and inner ones let a claimed launch through; nothing a build writes into the
 * environment can switch policing off.
 */
final class PolicedLauncher extends Launcher.DecoratedLauncher {
    /**
     * Releases of launches measured and not lowered, off the step's thread. Putting a process into its accounting group
     * waits for an RCU grace period in the kernel (about 6 ms a move on a quiet 2-core machine, 14 ms in Jenkins), and
     * the step's thread waiting for it delayed every step by that much: durable-task checks a step's end on a timer
     * that starts when the launch returns. At most 16 at once; beyond that a release runs on the step's thread, as all
     * did before.
     */
    private static final ExecutorService RELEASES = releases();
    private final LaunchSettings settings;

    PolicedLauncher(final Launcher inner, final LaunchSettings settings) {
        super(inner);
        this.settings = settings;
    }

    /** {@code launcher} policed by {@code settings}; a policed launcher directly inside is replaced, its policy is merged in. */
    static Launcher around(final Launcher launcher, final LaunchSettings settings) {
        if (launcher instanceof PolicedLauncher p) {
            // a block nested in withSchedGuard keeps the launches guarded
            return new PolicedLauncher(p.getInner(), p.settings().guardKey() == null || settings.guardKey() != null ? settings
                    : settings.guarded(p.settings().guardKey()));
        }
        return new PolicedLauncher(launcher, settings);
    }

    LaunchSettings settings() {
        return settings;
    }

    @Override
    public Proc launch(@NonNull final ProcStarter starter) throws IOException {
        VirtualChannel channel = getChannel();
        List<String> cmds = starter.cmds();
        if (!isUnix() || channel == null || cmds == null || cmds.isEmpty()) {
            return super.launch(starter);
        }
        // the step's stage is known only now, on the thread that starts it
        LaunchSettings effective = RuleGuards.apply(settings);
        if (effective.passesUnguarded() || !LaunchMarks.claim(starter)) {
            return super.launch(starter);
        }
        try {
            PreparedLaunch prepared = prepare(channel, effective, cmds, starter.envs());
            // Jenkins knows the launch's build on this thread only (the step starting here, the executor)
            Run<?, ?> run = LaunchBuilds.of(effective.runId());
            LaunchRuns.record(effective.node(), prepared.id(), run);
            MeasuredLaunches.measure(channel, effective, prepared, getListener().getLogger());
            GuardedSteps.guard(channel, effective, prepared, getListener().getLogger());
            starter.cmds(prepared.command(cmds));
            starter.masks(prepared.masks(starter.masks()));
            // the container client wrappers go first on the launch's PATH, so the containers its script starts are placed
            starter.envs(prepared.environment(LaunchMarks.withMarker(starter.envs(), prepared.id())));
            Proc proc;
            try {
                proc = super.launch(starter);
            } catch (IOException | RuntimeException e) {
                abortQuietly(channel, prepared.id(), "Jenkins could not start the command: " + e.getMessage());
                throw e;
            }
            if (releasesAside(effective)) {
                // the command stays parked until released, so what it runs under still holds from its first instruction
                RELEASES.execute(() -> releaseAside(channel, prepared, effective, run, proc));
                return proc;
            }
            try {
                release(channel, prepared, effective, run);
            } catch (IOException | RuntimeException e) {
                killQuietly(proc);
                throw e;
            }
            return proc;
        } finally {
            LaunchMarks.release(starter);
        }
    }

    /** Core's base implementation, which {@link Launcher.DecoratedLauncher} bypasses: through {@link #launch(ProcStarter)}. */
    @Override
    public Proc launch(final String[] cmd, final boolean[] mask, final String[] env, final InputStream in, final OutputStream out,
            final FilePath workDir) throws IOException {
        return launch(launch().cmds(cmd).masks(mask).envs(env).stdin(in).stdout(out).pwd(workDir));
    }

    @Override
    public Proc launch(final String[] cmd, final String[] env, final InputStream in, final OutputStream out, final FilePath workDir)
            throws IOException {
        return launch(launch().cmds(cmd).envs(env).stdin(in).stdout(out).pwd(workDir));
    }

    /** A channel launch speaks remoting over the command's stdin/stdout, which the shim leaves alone. */
    @Override
    public Channel launchChannel(final String[] cmd, final OutputStream out, final FilePath workDir, final Map<String, String> envVars)
            throws IOException, InterruptedException {
        VirtualChannel channel = getChannel();
        if (!isUnix() || channel == null || cmd == null || cmd.length == 0) {
            return super.launchChannel(cmd, out, workDir, envVars);
        }
        PreparedLaunch prepared = prepare(channel, settings, List.of(cmd), envVars == null ? null
                : envVars.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toArray(String[]::new));
        Channel launched;
        try {
            launched = super.launchChannel(prepared.command(List.of(cmd)).toArray(new String[0]), out, workDir,
                    LaunchMarks.withMarker(envVars, prepared.id()));
        } catch (IOException | InterruptedException | RuntimeException e) {
            abortQuietly(channel, prepared.id(), "Jenkins could not start the command: " + e.getMessage());
            throw e;
        }
        try {
            release(channel, prepared, settings, LaunchBuilds.of(settings.runId()));
        } catch (IOException | RuntimeException e) {
            launched.close();
            throw e;
        }
        return launched;
    }

    /** The filter rules core prepares on the launcher it holds (this one) must reach the launcher that starts the process. */
    @Override
    public void prepareFilterRules(@CheckForNull final Run<?, ?> run, @NonNull final EnvVarsFilterableBuilder builder) {
        super.prepareFilterRules(run, builder);
        getInner().prepareFilterRules(run, builder);
    }

    /**
     * The engine decides on the agent, from the command line, whether and how the launch is policed (containers too), under
     * {@code launch}: this launcher's settings, or a guard rule's guarded copy of them.
     */
    private static PreparedLaunch prepare(final VirtualChannel channel, final LaunchSettings launch, final List<String> cmds,
            final String[] envs) throws IOException {
        try {
            return channel.call(new AgentCalls.Prepare(launch.request(cmds, envs)));
        } catch (InterruptedException e) {
            throw (IOException) new InterruptedIOException("interrupted while preparing the launch").initCause(e);
        } catch (RuntimeException e) {
            // includes the engine's refusals of container launches, which say why and what to use instead
            throw new AbortException(Messages.Console_cannotPolice(e.getMessage()));
        }
    }

    /**
     * {@code launch}: the settings the launch was prepared under (this launcher's, or a guard rule's guarded copy);
     * {@code run}: its build, as the launching thread knew it (null: none).
     */
    private void release(final VirtualChannel channel, final PreparedLaunch prepared, final LaunchSettings launch,
            @CheckForNull final Run<?, ?> run) throws IOException {
        LaunchRecord record;
        try (AbortWatch watch = AbortWatch.start(run, channel, prepared.id())) {
            record = channel.call(new AgentCalls.Release(prepared.id(), settings.timeoutSeconds()));
        } catch (InterruptedException e) {
            abortQuietly(channel, prepared.id(), "the build was interrupted");
            throw (IOException) new InterruptedIOException("interrupted while applying " + settings.policy()).initCause(e);
        } catch (AbortedLaunchException e) {
            throw new AbortException(Messages.Console_line(e.getMessage()));
        } catch (RuntimeException e) {
            // the engine refused under on-unsupported=fail: the shim exits 125 without running the command
            throw new AbortException(Messages.Console_notApplied(settings.policy(), e.getMessage()));
        }
        // the policy the engine applied: floored by the default of the node the launch ran on. A step measured and
        // not lowered runs as without the plugin: a line per step would say "normal" thousands of times in a long
        // build, so its build hears once where the figures are (a warning or a mismatch is still said)
        if (!measuredOnly(launch, record)) {
            getListener().getLogger().println(Messages.Console_launchVerified(record.policy(), record.describe()));
        } else {
            MeasuredLaunches.sayMeasuredOnce(run, getListener().getLogger());
        }
        for (String w : record.warnings()) {
            getListener().getLogger().println(Messages.Console_warning(w));
        }
        // a Pipeline's log is buffered on the controller: without this, a controller killed while the command
        // runs loses the line that says how it runs (the live suite's 88-fault-restart)
        getListener().getLogger().flush();
        SchedPolicyAction.recordLaunch(run, settings.blockKey(), settings.node(), record);
    }

    private static ExecutorService releases() {
        return new ThreadPoolExecutor(0, 16, 30, TimeUnit.SECONDS, new SynchronousQueue<>(),
                new NamingThreadFactory(new DaemonThreadFactory(), "Sched Policy release"), new ThreadPoolExecutor.CallerRunsPolicy());
    }

    /**
     * A node's launch measured and not lowered (a node default of {@code normal} with measuring on): nothing is applied
     * to it but its accounting group, and its console says nothing per launch, so its step need not wait for the release.
     */
    private static boolean releasesAside(final LaunchSettings launch) {
        return launch.measure() && launch.guardKey() == null && "normal".equals(launch.policy())
                && launch.blockKey().startsWith(NodeDefaultLauncherDecorator.BLOCK_KEY + ":");
    }

    /** {@link #release} on a thread of its own: a refusal is said in the console and the parked command never runs. */
    private void releaseAside(final VirtualChannel channel, final PreparedLaunch prepared, final LaunchSettings launch,
            @CheckForNull final Run<?, ?> run, final Proc proc) {
        try {
            release(channel, prepared, launch, run);
        } catch (IOException | RuntimeException e) {
            // the shim exits 125 without running the command, which fails the step; the line says why
            getListener().getLogger().println(e instanceof AbortException ? e.getMessage() : Messages.Console_line(e.getMessage()));
            killQuietly(proc);
        }
    }

    /** A node's measured-but-not-lowered launch, applied as asked and with nothing to warn of. */
    private static boolean measuredOnly(final LaunchSettings launch, final LaunchRecord record) {
        return releasesAside(launch) && record.verified() && record.warnings().isEmpty() && record.container().isEmpty();
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
