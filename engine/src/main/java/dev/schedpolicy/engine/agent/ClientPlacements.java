package dev.schedpolicy.engine.agent;

import dev.schedpolicy.engine.cgroup.CgroupException;
import dev.schedpolicy.engine.cgroup.CgroupSystem;
import dev.schedpolicy.engine.container.ClientDesk;
import dev.schedpolicy.engine.container.ContainerAction;
import dev.schedpolicy.engine.container.ContainerCommand;
import dev.schedpolicy.engine.container.ContainerLaunch;
import dev.schedpolicy.engine.container.ContainerPlacement;
import dev.schedpolicy.engine.container.ContainerPresence;
import dev.schedpolicy.engine.container.ContainerReadBack;
import dev.schedpolicy.engine.container.ContainerRuntime;
import dev.schedpolicy.engine.container.DaemonVariables;
import dev.schedpolicy.engine.container.DriverQuery;
import dev.schedpolicy.engine.container.UnplacedStarts;
import dev.schedpolicy.engine.launch.LaunchConfig;
import dev.schedpolicy.engine.launch.LaunchDirs;
import dev.schedpolicy.engine.launch.WarningBrief;
import dev.schedpolicy.engine.policy.Policy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * The containers a policed launch's own processes start: {@code sh 'docker build .'}, docker-workflow's
 * {@code docker.build()} and {@code withRun()} (its Groovy runs the client from {@code sh}), a Makefile. A parked launch
 * under a policy gets docker and podman wrappers first on its PATH (see {@link ClientDesk}), one directory per set of
 * placement settings (policy, cgroup parent, floor and limits), so the kernel's word on which directory a wrapper ran
 * from says how to place its line: no environment variable, no build-written file decides it. A line whose containers
 * or RUN steps cannot be placed (buildx, compose, a build under DOCKER_BUILDKIT=1) runs as given and says so
 * ({@link UnplacedStarts}). A build that runs the
 * real client by its path, or puts another directory of this agent first, gets what it would get without the plugin,
 * never more: each directory carries a policy at least as low as the floor. Container starts are placed as a launch
 * of the same line would be, with the floor's refusals; other client lines run as given; a line that cannot be read is
 * refused. The wrapper says in one line on the step's own output what was placed (nothing goes to another build's
 * page), and for a run, in a second line once its first process runs, what the kernel holds for the container; a
 * build gets a group of its own, where its first RUN step is read back likewise (see {@link #buildVerdictOf}). A
 * container started in the foreground is killed when its client dies while it still runs (see {@link #endOrphans}).
 */
final class ClientPlacements implements AutoCloseable {
    /** Distinct placement settings on one agent: policies times parents times floors, a handful in practice. */
    static final int MAX_SETTINGS = 256;
    /** A --cidfile directory is removed once the client wrote the id, or after this long (an image pull can take a while). */
    private static final Duration KEEP_CID = Duration.ofHours(2);
    private static final int MAX_OPEN = 1000;

    private record Settings(Policy policy, Optional<Path> parent, AgentLimits limits, ContainerFloor floor) {
    }

    private record Placed(ContainerLaunch launch, long since) {
    }

    /** A docker build's own group, removed once its client (the wrapper's PID, which execs the client) has ended. */
    private record BuildGroup(String group, long clientPid, Optional<Instant> clientStart, long since) {
        boolean clientAlive() {
            return ProcessHandle.of(clientPid).filter(ProcessHandle::isAlive)
                    .filter(h -> h.info().startInstant().equals(clientStart)).isPresent();
        }
    }

    /**
     * A container started in the foreground (run without --detach), which must not outlive its client: a stopped step
     * kills the client, and a container whose first process ignores the forwarded SIGTERM (a shell as PID 1) would run
     * on, in the block's placement, with nothing left to wait for it.
     */
    private record Foreground(ContainerLaunch launch, ContainerCommand command, long clientPid, Optional<Instant> clientStart,
            Map<String, String> daemonEnv) {
        boolean clientAlive() {
            return ProcessHandle.of(clientPid).filter(ProcessHandle::isAlive)
                    .filter(h -> h.info().startInstant().equals(clientStart)).isPresent();
        }
    }

    private final LaunchConfig config;
    private final Map<String, Settings> byKey = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<Placed> open = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Foreground> foreground = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<BuildGroup> buildGroups = new ConcurrentLinkedQueue<>();
    private volatile CgroupSystem cgroups;
    private volatile ExecutorService ender;
    private volatile ClientDesk desk;
    private volatile Path deskDir;
    private volatile ContainerPlacement placement;
    private volatile ContainerReadBack readBack;
    private static final Duration KILL_BOUND = Duration.ofSeconds(15);
    /** Within the wrapper's wait for a verdict ({@link ClientDesk#VERDICT_WAIT}), with room for the answer. */
    private static final Duration VERIFY_BOUND = Duration.ofSeconds(10);
    private static final Duration POLL = Duration.ofMillis(100);
    private volatile long lastAnswer = System.nanoTime();
    private Thread removeAtExit;

    ClientPlacements(final LaunchConfig config) {
        this.config = config;
    }

    /**
     * The directory to put first on the PATH of a launch under {@code policy}, or empty when there is nothing to place
     * (the default policy) or this agent keeps too many settings already.
     */
    Optional<String> binFor(final Policy policy, final Optional<Path> parent, final LaunchRequest request) {
        if (policy.isDefault()) {
            return Optional.empty();
        }
        String key = keyOf(policy, parent, request);
        if (!byKey.containsKey(key)) {
            if (byKey.size() >= MAX_SETTINGS) {
                // bounded: an agent that saw this many distinct settings runs later ones' client lines as given
                return Optional.empty();
            }
            byKey.putIfAbsent(key, new Settings(policy, parent, request.limits(),
                    ContainerFloor.of(request.agentDefault(), request.limits())));
        }
        return Optional.of(desk().bin(key).toString());
    }

    private static String keyOf(final Policy policy, final Optional<Path> parent, final LaunchRequest request) {
        String settings = policy.toCompact() + "\n" + parent.map(Path::toString).orElse("") + "\n" + request.agentDefault() + "\n"
                + request.limits();
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(settings.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    private synchronized ClientDesk desk() {
        if (desk == null) {
            Path dir = LaunchDirs.createLongLived(config);
            try {
                desk = ClientDesk.open(dir.resolve("desk"), config.proc(), pid -> true, this::decide);
                deskDir = dir;
                // an agent stopped as a service is (SIGTERM) removes its wrappers; one killed leaves them to the next start's
                // sweep, which cannot reach them when that start sees another state directory (a mount of its own)
                removeAtExit = new Thread(() -> LaunchDirs.remove(dir), "schedpolicy-client-desk-removal");
                Runtime.getRuntime().addShutdownHook(removeAtExit);
            } catch (RuntimeException e) {
                LaunchDirs.remove(dir);
                throw e;
            }
        }
        return desk;
    }

    private ClientDesk.Answer decide(final ClientDesk.Request request) {
        lastAnswer = System.nanoTime();
        Settings settings = byKey.get(request.key());
        if (settings == null) {
            return new ClientDesk.No("this step's container client wrapper belongs to an agent process that is gone; run the step again");
        }
        String policyWords = "the block's policy '" + settings.policy().toCompact() + "'";
        Optional<ContainerCommand> start = ClientDesk.startIn(request.argv(), policyWords);
        if (start.isEmpty()) {
            return new ClientDesk.Go(request.argv(), UnplacedStarts.noteFor(request.argv(), policyWords)
                    .map(note -> "[schedpolicy] " + note).orElse(""));
        }
        ContainerCommand command = start.get();
        List<String> cannotHold = settings.floor().check(command, settings.policy());
        ContainerLaunch launch = ContainerLaunch.prepare(placement(), command, settings.policy(), settings.parent(),
                config.withLimits(settings.limits().toPolicyLimits()), request.env());
        if (command.action() == ContainerAction.RUN && command.option("--detach").isEmpty() && foreground.size() < MAX_OPEN) {
            foreground.add(new Foreground(launch, command, request.pid(), ProcessHandle.of(request.pid())
                    .flatMap(h -> h.info().startInstant()), DaemonVariables.of(request.env())));
        } else {
            keep(launch);
        }
        List<String> said = new ArrayList<>(cannotHold);
        said.addAll(launch.plan().warnings());
        String warning = said.isEmpty() ? "" : "; " + WarningBrief.of(said.get(0));
        String readBack = launch.plan().buildTail(request.env());
        Optional<String> buildGroup = launch.plan().buildGroup();
        if (buildGroup.isPresent() && command.runtime() == ContainerRuntime.DOCKER) {
            keepBuildGroup(buildGroup.get(), request.pid());
        }
        boolean readBuild = buildGroup.isPresent() && !UnplacedStarts.buildKitChosen(command, request.env());
        Optional<Supplier<String>> verdict = command.action() == ContainerAction.RUN ? Optional.of(() -> verdictOf(launch))
                : readBuild ? Optional.of(() -> buildVerdictOf(launch)) : Optional.empty();
        boolean detached = command.action() == ContainerAction.RUN && command.option("--detach").isPresent();
        return new ClientDesk.Go(launch.argv(), "[schedpolicy] " + command.describe() + " placed under '" + settings.policy().toCompact()
                + "' with " + launch.plan().shownOptions()
                + warning + (command.action() == ContainerAction.RUN ? "" : "; " + readBack), verdict, detached);
    }

    /** What the kernel holds for a started container once its first process runs, in one console line. */
    private String verdictOf(final ContainerLaunch launch) {
        String line = launch.plan().command().describe();
        Optional<ContainerReadBack.State> state = launch.awaitRunning(readBack(), VERIFY_BOUND);
        if (state.isEmpty()) {
            return "[schedpolicy] " + line + " container " + launch.id().map(id -> id.substring(0, 12) + " ended before it was read back")
                    .orElse("NOT verified: no process of it ran within " + VERIFY_BOUND.toSeconds() + " s (still pulling its image, or"
                    + " the client failed: its own output says)");
        }
        List<String> mismatches = ContainerReadBack.mismatches(state.get(), launch.plan().policy());
        return "[schedpolicy] " + line + " container " + state.get().id().substring(0, 12) + (mismatches.isEmpty() ? " verified: "
                : " NOT verified: ") + state.get().describe() + (mismatches.isEmpty() ? "" : "; NOT as asked: " + String.join("; ", mismatches));
    }

    /**
     * What the kernel holds for the first RUN step of a build seen in the build's own group, in one console line: a podman
     * build's runs in that group, a docker build's in a group of its own under it. A docker build's group that exists with
     * nothing in it was made by the classic builder for steps that ended between two looks; one that was never made means
     * no RUN step was placed (BuildKit ignores --cgroup-parent), or none came within the bound.
     */
    private String buildVerdictOf(final ContainerLaunch launch) {
        String line = launch.plan().command().describe();
        String group = launch.plan().buildGroup().orElseThrow();
        boolean podman = launch.plan().command().runtime() == ContainerRuntime.PODMAN;
        String name = group.substring(group.lastIndexOf('/') + 1);
        long deadline = System.nanoTime() + VERIFY_BOUND.toNanos();
        Optional<ContainerReadBack.State> state;
        boolean made = false;
        do {
            state = podman ? readBack().findInGroup(group, name) : readBack().findUnder(group);
            made = made || !podman && groupExists(group);
        } while (state.isEmpty() && System.nanoTime() < deadline && pause());
        if (state.isPresent()) {
            List<String> mismatches = ContainerReadBack.mismatches(state.get(), launch.plan().policy());
            return "[schedpolicy] " + line + " RUN step" + (mismatches.isEmpty() ? " verified: " : " NOT verified: ")
                    + state.get().describe() + (mismatches.isEmpty() ? "" : "; NOT as asked: " + String.join("; ", mismatches));
        }
        if (made) {
            return "[schedpolicy] " + line + " RUN steps ran under " + group + " (the builder made it) and ended before they were read"
                    + " back";
        }
        return "[schedpolicy] " + line + " RUN steps NOT verified: none ran " + (podman ? "in " : "under ") + group + " within "
                + VERIFY_BOUND.toSeconds() + " s (" + (podman ? "" : "BuildKit ignores --cgroup-parent and DOCKER_BUILDKIT=0 chooses"
                + " the classic builder, which follows it; or ") + "its first RUN step comes later, or it has none)";
    }

    private boolean groupExists(final String cgroupPath) {
        try {
            return Files.isDirectory(cgroups().cpuDirOf(cgroupPath));
        } catch (CgroupException e) {
            return false;
        }
    }

    /**
     * Keeps a docker build's own group until its client has ended and it can be removed from every hierarchy (the runtime
     * made it in each and removes only the RUN steps' groups in it); first sweeps the groups under the same parent that a
     * killed agent left behind.
     */
    private void keepBuildGroup(final String group, final long clientPid) {
        try {
            cgroups().sweepStaleEverywhere(group.substring(0, Math.max(1, group.lastIndexOf('/'))));
        } catch (CgroupException e) {
            // nothing to sweep where the hierarchies cannot be read: the build's own group is still removed once it ends
        }
        if (buildGroups.size() >= MAX_OPEN) {
            BuildGroup oldest = buildGroups.poll();
            if (oldest != null) {
                cgroups().removeEverywhere(oldest.group());
            }
        }
        buildGroups.add(new BuildGroup(group, clientPid, ProcessHandle.of(clientPid).flatMap(h -> h.info().startInstant()),
                System.nanoTime()));
    }

    /** Removes the own groups of docker builds whose client has ended; one still busy is tried again, for at most a while. */
    private void endBuildGroups() {
        long now = System.nanoTime();
        buildGroups.removeIf(b -> !b.clientAlive() && (cgroups().removeEverywhere(b.group()) || now - b.since() > KEEP_CID.toNanos()));
    }

    private CgroupSystem cgroups() {
        CgroupSystem c = cgroups;
        if (c == null) {
            c = CgroupSystem.detect();
            cgroups = c;
        }
        return c;
    }

    private static boolean pause() {
        try {
            Thread.sleep(POLL.toMillis());
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private ContainerPlacement placement() {
        ContainerPlacement p = placement;
        if (p == null) {
            p = new ContainerPlacement(cgroups(), new DriverQuery()).withDockerBuildGroups();
            placement = p;
        }
        return p;
    }

    private void keep(final ContainerLaunch launch) {
        sweep();
        if (open.size() >= MAX_OPEN) {
            Placed oldest = open.poll();
            if (oldest != null) {
                oldest.launch().close();
            }
        }
        open.add(new Placed(launch, System.nanoTime()));
    }

    /** Removes the --cidfile directories whose client wrote the id, or that waited too long. */
    void sweep() {
        long now = System.nanoTime();
        open.removeIf(p -> {
            if (p.launch().id().isPresent() || now - p.since() > KEEP_CID.toNanos()) {
                p.launch().close();
                return true;
            }
            return false;
        });
    }

    /**
     * Whether the wrappers may go: none was handed out, or none asked for {@code quiet} since {@code sinceNanos} (a
     * registry detached by a reconnect keeps answering the steps that still run with its wrappers on their PATH).
     */
    boolean quietFor(final Duration quiet, final long sinceNanos) {
        long last = Math.max(lastAnswer, sinceNanos);
        return desk == null || System.nanoTime() - last > quiet.toNanos();
    }

    /**
     * Kills the running foreground containers whose client is gone (the step was stopped), through their daemon, on a
     * thread of their own: a hung daemon holds it for the call's bound, never the registry's timer.
     */
    void endOrphans() {
        endBuildGroups();
        for (Foreground f : foreground) {
            if (f.clientAlive()) {
                continue;
            }
            foreground.remove(f);
            enderThread().execute(() -> {
                Optional<String> id = f.launch().id();
                if (id.isPresent() && readBack().find(id.get()).isPresent()) {
                    ContainerPresence.kill(f.command(), id.get(), f.daemonEnv(), KILL_BOUND);
                }
                f.launch().close();
            });
        }
    }

    private synchronized ExecutorService enderThread() {
        if (ender == null) {
            ender = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "schedpolicy-container-ender");
                t.setDaemon(true);
                return t;
            });
        }
        return ender;
    }

    private ContainerReadBack readBack() {
        ContainerReadBack r = readBack;
        if (r == null) {
            r = new ContainerReadBack(cgroups(), config.proc());
            readBack = r;
        }
        return r;
    }

    @Override
    public synchronized void close() {
        if (desk != null) {
            desk.close();
            LaunchDirs.remove(deskDir);
            desk = null;
            try {
                Runtime.getRuntime().removeShutdownHook(removeAtExit);
            } catch (IllegalStateException e) {
                // the JVM is shutting down: the hook runs, and finds nothing
            }
        }
        open.forEach(p -> p.launch().close());
        open.clear();
        foreground.forEach(f -> f.launch().close());
        foreground.clear();
        buildGroups.forEach(b -> cgroups().removeEverywhere(b.group()));
        buildGroups.clear();
        if (ender != null) {
            ender.shutdown();
            ender = null;
        }
        byKey.clear();
    }
}
