package dev.schedpolicy.engine.container;

import dev.schedpolicy.engine.launch.LaunchConfig;
import dev.schedpolicy.engine.launch.LaunchDirs;
import dev.schedpolicy.engine.policy.Policy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One container start placed under a policy: the rewritten command line, and afterwards which container it made
 * (from the --cidfile the client writes once the container exists) and what the kernel holds for it. Closing it
 * removes only our own files; the container belongs to whoever started it (docker-workflow stops its own).
 */
public final class ContainerLaunch implements AutoCloseable {
    private static final long POLL_MILLIS = 20;
    /** A full container id: 64 hex digits (docker, podman). Lookups by prefix need at least the short id's 12. */
    private static final int SHORT_ID = 12;

    private final ContainerPlacement.Plan plan;
    private final Optional<Path> ownDir;
    private volatile String id;
    /** Why the launch was aborted (the build was stopped) while its release waited for the container; null if not. */
    private volatile String abortReason;

    private ContainerLaunch(final ContainerPlacement.Plan plan, final Optional<Path> ownDir) {
        this.plan = plan;
        this.ownDir = ownDir;
    }

    /**
     * Plans the start of {@code command} under {@code policy}; the caller starts {@link #argv()}.
     *
     * @throws ContainerRefusal when the policy cannot be carried out under on-unsupported=fail
     */
    public static ContainerLaunch prepare(final ContainerPlacement placement, final ContainerCommand command, final Policy policy,
            final Optional<Path> configuredParent, final LaunchConfig config, final Map<String, String> env) {
        LaunchDirs.checkFits(config, policy);
        Path dir = LaunchDirs.create(config);
        try {
            ContainerPlacement.Plan plan = placement.plan(command, policy, configuredParent, dir.resolve("cid"), env);
            if (!plan.ownCidFile()) {
                LaunchDirs.remove(dir);
                return new ContainerLaunch(plan, Optional.empty());
            }
            return new ContainerLaunch(plan, Optional.of(dir));
        } catch (RuntimeException e) {
            LaunchDirs.remove(dir);
            throw e;
        }
    }

    public ContainerPlacement.Plan plan() {
        return plan;
    }

    /** The command line to start. */
    public List<String> argv() {
        return plan.argv();
    }

    /** The container's id once the client has written it. */
    public Optional<String> id() {
        String known = id;
        if (known != null) {
            return Optional.of(known);
        }
        try {
            String text = Files.readString(plan.cidFile()).trim();
            if (text.matches("[0-9a-f]{" + SHORT_ID + ",}")) {
                id = text;
                return Optional.of(text);
            }
        } catch (NoSuchFileException e) {
            // not created yet (pulling the image), or the client failed before creating it
        } catch (IOException e) {
            // unreadable: reported as not yet known
        }
        return Optional.empty();
    }

    /** The id, waiting up to {@code bound} for the client to create the container. */
    public Optional<String> awaitId(final Duration bound) {
        long deadline = System.nanoTime() + bound.toNanos();
        Optional<String> known = id();
        while (known.isEmpty() && System.nanoTime() < deadline && pause()) {
            known = id();
        }
        return known;
    }

    /** Ends a wait in {@link #awaitId} or {@link #awaitRunning} at once; the caller decides what the launch became. */
    public void abort(final String reason) {
        abortReason = reason;
    }

    /** Why {@link #abort} was called, if it was. */
    public Optional<String> abortReason() {
        return Optional.ofNullable(abortReason);
    }

    /** The container's state once its first process runs, waiting up to {@code bound}. */
    public Optional<ContainerReadBack.State> awaitRunning(final ContainerReadBack readBack, final Duration bound) {
        long deadline = System.nanoTime() + bound.toNanos();
        Optional<String> known = awaitId(bound);
        if (known.isEmpty()) {
            return Optional.empty();
        }
        Optional<ContainerReadBack.State> state = readBack.find(known.get());
        while (state.isEmpty() && System.nanoTime() < deadline && pause()) {
            state = readBack.find(known.get());
        }
        return state;
    }

    /**
     * Whether {@code target} (as an exec names it) is this container: its full id, an id prefix of at least the short
     * id's 12 digits, or the --name it was started with.
     */
    public boolean isTarget(final String target) {
        Optional<String> name = plan.command().option("--name");
        if (name.isPresent() && name.get().equals(target)) {
            return true;
        }
        Optional<String> known = id();
        return known.isPresent() && target.length() >= SHORT_ID && known.get().startsWith(target);
    }

    private boolean pause() {
        if (abortReason != null) {
            return false;
        }
        try {
            Thread.sleep(POLL_MILLIS);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Removes the --cidfile we chose (a later start of the same line must not find it: docker refuses an existing one). */
    @Override
    public void close() {
        ownDir.ifPresent(LaunchDirs::remove);
    }
}
