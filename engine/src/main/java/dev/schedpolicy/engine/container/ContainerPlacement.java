package dev.schedpolicy.engine.container;

import dev.schedpolicy.engine.cgroup.CgroupException;
import dev.schedpolicy.engine.cgroup.CgroupSystem;
import dev.schedpolicy.engine.cgroup.CpuLimits;
import dev.schedpolicy.engine.cgroup.IdleParent;
import dev.schedpolicy.engine.policy.OnUnsupported;
import dev.schedpolicy.engine.policy.Policy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Turns a policy into the runtime's own options for one {@code run}/{@code create}: the container's group goes under
 * an idle parent for cpu-idle ({@code --cgroup-parent}: the administrator's parent, else the machine-wide one from
 * {@code schedpolicy setup}), and carries weight, quota and CPUs itself ({@code --cpu-shares}, {@code --cpus},
 * {@code --cpuset-cpus}). No group of ours is made per container: the container outlives the client we launch, and
 * a group under it would have to live as long as the daemon keeps the container. A {@code --cidfile} in our state
 * directory tells us which container the launch made. Per-task parts cannot reach the container: their cgroup
 * equivalents stand in for them where one can be applied (an agent default of 'idle' must not fail container
 * builds: without an idle parent, class idle runs at the lowest weight); where none can (an I/O class),
 * on-unsupported=fail refuses the launch saying what the administrator must do, and warn reports it.
 */
public final class ContainerPlacement {
    /**
     * The stand-in for class idle where no idle parent exists: the lowest weight each layout has, cpu.shares 2 on v1 (the
     * runtimes turn it into cpu.weight 1 on v2), which weighs the container against one at the default about as
     * SCHED_IDLE weighs a task against a normal one (3 of 1024). Weight 1 as a policy is 1% (shares 10 on v1).
     */
    static final int LOWEST_WEIGHT = 1;
    static final long LOWEST_SHARES = 2;

    /**
     * Why a build's placement is never called verified: its RUN steps run in containers its builder makes and removes. The
     * classic builder makes them under the build's --cgroup-parent and with its CPU options; BuildKit in dockerd (measured
     * with dockerd 20.10, cgroupfs driver) ignores --cgroup-parent and runs them under /docker/buildkit.
     */
    public static final String BUILD_NOT_READ_BACK = "its RUN steps follow it only with the classic builder (BuildKit ignores"
            + " --cgroup-parent); not read back";

    /**
     * Where a podman build's RUN steps run. buildah runs them in the --cgroup-parent group itself, writes the build's CPU
     * options there, and removes that group, with the empty groups in it, when the build ends (measured with podman
     * 4.3.1, cgroupfs manager, cgroup v1): given the idle parent, a build deleted it, and the next one made a plain group
     * of that name. So a podman build's parent is a group of its own under the one the policy chose, which buildah makes
     * and removes, and its RUN steps can be read back there.
     */
    public static final String PODMAN_BUILD_GROUP = "its RUN steps run in that group of their own (buildah makes and removes it)";

    /**
     * Where a docker build's RUN steps run when it has a group of its own: the classic builder makes one group per RUN
     * step under it; BuildKit in dockerd ignores --cgroup-parent, so nothing ever appears there.
     */
    public static final String DOCKER_BUILD_GROUP = "its RUN steps run under that group of their own with the classic builder"
            + " (BuildKit ignores --cgroup-parent)";

    private final CgroupSystem system;
    private final CgroupDrivers drivers;
    private final boolean dockerBuildGroups;

    public ContainerPlacement(final CgroupSystem system, final CgroupDrivers drivers) {
        this(system, drivers, false);
    }

    private ContainerPlacement(final CgroupSystem system, final CgroupDrivers drivers, final boolean dockerBuildGroups) {
        this.system = system;
        this.drivers = drivers;
        this.dockerBuildGroups = dockerBuildGroups;
    }

    /**
     * This placement, giving a docker build a group of its own under the parent as well, so that its RUN steps can be told
     * from every other container there and read back. The daemon's runtime makes that group in every hierarchy and never
     * removes it: the caller removes it once the build's client has ended ({@link CgroupSystem#removeEverywhere}).
     */
    public ContainerPlacement withDockerBuildGroups() {
        return new ContainerPlacement(system, drivers, true);
    }

    /**
     * The placement of one container start.
     *
     * @param command      the command as given
     * @param inserted     the options put right after the subcommand
     * @param cgroupParent the --cgroup-parent value, when one is set
     * @param cidFile      where the client writes the container's id
     * @param ownCidFile   whether {@code cidFile} is ours to delete (false when the command named its own)
     * @param warnings     what was not applied, under on-unsupported=warn
     * @param policy       the policy the placement carries out
     * @param notApplied   the parts of the asked policy the container runs without, each in a few words ("class batch
     *                     not applied: ..."), so its record never calls them verified
     * @param buildGroup   a build's group of its own, which is its --cgroup-parent: the group a podman build's RUN steps
     *                     run in, or the one a docker build's RUN steps get their groups under
     */
    public record Plan(ContainerCommand command, List<String> inserted, Optional<String> cgroupParent, Path cidFile, boolean ownCidFile,
            List<String> warnings, Policy policy, List<String> notApplied, Optional<String> buildGroup) {
        public Plan {
            inserted = List.copyOf(inserted);
            warnings = List.copyOf(warnings);
            notApplied = List.copyOf(notApplied);
        }

        /** The command line to start instead of the given one. */
        public List<String> argv() {
            return command.withOptions(inserted);
        }

        /** What a build's line adds about its RUN steps, given the environment the client runs with. */
        public String buildTail(final Map<String, String> env) {
            if (UnplacedStarts.buildKitChosen(command, env)) {
                return UnplacedStarts.buildKitTail();
            }
            if (buildGroup.isEmpty()) {
                return BUILD_NOT_READ_BACK;
            }
            return command.runtime() == ContainerRuntime.PODMAN ? PODMAN_BUILD_GROUP : DOCKER_BUILD_GROUP;
        }

        /** The inserted options a reader is shown: our own --cidfile is bookkeeping, not placement. */
        public String shownOptions() {
            return String.join(" ", inserted.stream().filter(o -> !o.startsWith("--cidfile=")).toList());
        }
    }

    /**
     * @param command          a run or create line
     * @param configuredParent the administrator's cgroup parent (a directory in the cpu hierarchy), if any
     * @param cidFile          a path that does not exist yet, in a directory only we can write
     * @param env              the environment the command will run with (to ask its daemon for the cgroup driver)
     * @throws ContainerRefusal under on-unsupported=fail when a part of the policy cannot be carried out
     */
    public Plan plan(final ContainerCommand command, final Policy policy, final Optional<Path> configuredParent, final Path cidFile,
            final Map<String, String> env) {
        if (command.action() == ContainerAction.EXEC) {
            throw new IllegalArgumentException("an exec joins a container that exists; only run, create and build are placed");
        }
        Outcome out = new Outcome(policy, command);
        Policy placed = standIns(command, policy, configuredParent, out);
        if (placed.cpuIdle() || configuredParent.isPresent()) {
            parent(command, placed, configuredParent, env, out);
        }
        placed.cpuWeight().ifPresent(w -> out.set("--cpu-shares", Long.toString(out.lowest ? LOWEST_SHARES : CpuLimits.sharesForWeight(w)),
                "weight " + w));
        boolean build = command.action() == ContainerAction.BUILD;
        policy.cpuQuotaPercent().ifPresent(q -> {
            if (build) {
                // a build has no --cpus: the same quota per the kernel's default period
                out.set("--cpu-period", Long.toString(CpuLimits.PERIOD_US), "quota " + q + "%");
                out.set("--cpu-quota", Long.toString(CpuLimits.PERIOD_US * q / 100), "quota " + q + "%");
            } else {
                out.set("--cpus", cpusForQuota(q), "quota " + q + "%");
            }
        });
        policy.cpus().ifPresent(c -> out.set("--cpuset-cpus", c.toString(), "cpus " + c));
        Optional<String> ownCid = command.option("--cidfile");
        Path cid = ownCid.map(Path::of).orElse(cidFile);
        if (ownCid.isEmpty() && !build) {
            out.inserted.add("--cidfile=" + cidFile);
        }
        return new Plan(command, out.inserted, out.parent, cid, ownCid.isEmpty() && !build, out.warnings, placed, out.notApplied,
                out.buildGroup);
    }

    /**
     * The policy with its per-task parts replaced by their cgroup stand-ins (see {@link PerTaskParts#equivalent}), so an
     * agent default of 'idle' runs a container build low instead of failing it; one line says what stands in and why.
     * Class idle stands in as cpu-idle under an idle parent, else as the lowest weight. Where nothing can stand in (an
     * I/O class), that part is unsupported: refused under fail, with what the administrator must do.
     */
    private Policy standIns(final ContainerCommand command, final Policy policy, final Optional<Path> configured, final Outcome out) {
        PerTaskParts.Equivalent eq = PerTaskParts.equivalent(policy);
        String why = "'" + policy.toCompact() + "' acts per task and cannot reach the processes of a container, which the "
                + command.runtime().program() + " daemon starts";
        boolean cpuIdle = eq.cpuIdle();
        java.util.OptionalInt weight = eq.weight();
        if (cpuIdle) {
            Optional<String> problem = idleParentProblem(configured);
            if (problem.isPresent()) {
                // "builds here run low" must not become "container builds here fail" on a machine nobody ran setup on:
                // the lowest weight weighs the container against the machine about as SCHED_IDLE weighs a task
                cpuIdle = false;
                weight = java.util.OptionalInt.of(LOWEST_WEIGHT);
                out.lowest = true;
                out.warnings.add("for '" + policy.toCompact() + "', applied the lowest cpu weight (" + LOWEST_WEIGHT + "), not"
                        + " cpu-idle, which needs 'sudo schedpolicy setup': " + why + ", and " + problem.get());
            }
        }
        PerTaskParts.Equivalent applied = new PerTaskParts.Equivalent(cpuIdle, weight, eq.without(), eq.unmatched());
        if (!eq.without().isEmpty()) {
            out.unsupported(why + ", and " + String.join(", ", eq.without()) + " has no cgroup equivalent that is applied: set the"
                    + " policy without it for container builds (docker's --blkio-weight is the container's I/O weight under bfq)",
                    String.join(", ", eq.without()));
        }
        if (applied.any() && (cpuIdle || eq.weight().isPresent())) {
            // what was applied comes first: a terminal shows a warning cut at its first ': ' (WarningBrief)
            out.warnings.add("for '" + policy.toCompact() + "', applied its cgroup equivalent instead, " + applied.describe(policy)
                    + ": " + why);
        }
        for (String part : eq.unmatched()) {
            // not refused: nothing stands in yet, and the share it asks for is the default one, which the container keeps
            out.notApplied.add(part + " not applied: no cgroup equivalent reaches the container's processes");
            out.warnings.add("for '" + policy.toCompact() + "', " + part + " is not applied: " + why + ", and it has no cgroup"
                    + " equivalent (the container runs at class normal)");
        }
        return applied.applyTo(policy);
    }

    /** Why no idle parent can take a container here, or empty when one can (the configured parent, else the machine-wide one). */
    private Optional<String> idleParentProblem(final Optional<Path> configured) {
        Path dir;
        try {
            dir = configured.orElseGet(() -> IdleParent.of(system).path());
        } catch (CgroupException e) {
            return Optional.of("no cpu cgroup controller (" + e.getMessage() + ")");
        }
        String fix = configured.isEmpty() ? "an administrator makes the machine-wide idle parent once with 'sudo schedpolicy setup'"
                : "an administrator sets cpu.idle 1 on the node's cgroup parent " + dir + " or on a group above it, or removes"
                + " the node's cgroup parent so the machine-wide idle parent from 'schedpolicy setup' is used";
        if (!Files.isDirectory(dir)) {
            return Optional.of(dir + " does not exist: " + fix);
        }
        if (system.idleAncestor(dir).isEmpty()) {
            return Optional.of("neither " + dir + " nor a group above it has cpu.idle 1: " + fix);
        }
        return Optional.empty();
    }

    private void parent(final ContainerCommand command, final Policy policy, final Optional<Path> configured, final Map<String, String> env,
            final Outcome out) {
        Path dir;
        try {
            dir = configured.orElseGet(() -> IdleParent.of(system).path());
        } catch (CgroupException e) {
            out.unsupported("cpu-idle for a container needs a cpu cgroup controller: " + e.getMessage(), "cgroup parent");
            return;
        }
        String why = policy.cpuIdle() ? "cpu-idle for a container" : "the configured cgroup parent";
        if (!Files.isDirectory(dir)) {
            out.unsupported(why + " needs " + dir + ", which does not exist" + (configured.isEmpty()
                    ? ": an administrator makes the machine-wide idle parent once with 'sudo schedpolicy setup'" : ""),
                    policy.cpuIdle() ? "cpu-idle" : "cgroup parent");
            return;
        }
        if (policy.cpuIdle() && system.idleAncestor(dir).isEmpty()) {
            out.unsupported("cpu-idle for a container needs an idle parent, but neither " + dir + " nor a group above it has cpu.idle 1"
                    + " (the machine-wide idle parent from 'schedpolicy setup' has)", "cpu-idle");
            return;
        }
        CgroupDriver driver;
        try {
            driver = drivers.driverFor(command, env);
        } catch (ContainerRefusal e) {
            out.unsupported(e.getMessage(), policy.cpuIdle() ? "cpu-idle" : "cgroup parent");
            return;
        }
        String value;
        if (driver == CgroupDriver.SYSTEMD) {
            String name = dir.getFileName().toString();
            if (!name.endsWith(".slice")) {
                out.unsupported("the " + command.runtime().program() + " daemon uses the systemd cgroup driver, which takes only a slice"
                        + " as --cgroup-parent, and " + dir + " is not one: configure a slice with CPUWeight=idle (e.g."
                        + " /sys/fs/cgroup/build-idle.slice, docs/usage.md) as the cgroup parent, or run the daemon with the cgroupfs driver",
                        policy.cpuIdle() ? "cpu-idle" : "cgroup parent");
                return;
            }
            value = name;
        } else {
            value = system.cpuPathOf(dir);
            if (command.action() == ContainerAction.BUILD && (command.runtime() == ContainerRuntime.PODMAN || dockerBuildGroups)) {
                value = (value.endsWith("/") ? value : value + "/") + CgroupSystem.freshGroupName();
                out.buildGroup = Optional.of(value);
            }
        }
        out.set("--cgroup-parent", value, "cgroup parent " + value);
        out.parent = Optional.of(value);
    }

    /** docker's --cpus is CPUs per period: 50 % of one CPU is 0.5, 150 % is 1.5. */
    static String cpusForQuota(final int percent) {
        String s = String.format(Locale.ROOT, "%.2f", percent / 100.0);
        return s.replaceAll("0+$", "").replaceAll("\\.$", "");
    }

    /** What one plan collects; a part that cannot be carried out refuses (fail) or becomes a warning (warn). */
    private static final class Outcome {
        private final Policy policy;
        private final ContainerCommand command;
        private final List<String> inserted = new ArrayList<>();
        private final List<String> warnings = new ArrayList<>();
        private final List<String> notApplied = new ArrayList<>();
        private Optional<String> parent = Optional.empty();
        private Optional<String> buildGroup = Optional.empty();
        /** Whether the weight is the lowest stand-in for class idle. */
        private boolean lowest;

        Outcome(final Policy policy, final ContainerCommand command) {
            this.policy = policy;
            this.command = command;
        }

        /** @param part the part that is not applied, in a few words ("io idle", "cpu-idle") */
        void unsupported(final String reason, final String part) {
            if (policy.onUnsupported() == OnUnsupported.FAIL) {
                throw new ContainerRefusal(reason + " (onUnsupported: 'warn', or --on-unsupported warn, runs the container with the parts that apply)");
            }
            warnings.add(reason + "; the container runs without them");
            notApplied.add(part + " not applied (see the warning)");
        }

        /**
         * Adds --name=value. Where the command sets the option itself, that is a conflict the author must resolve: under
         * fail it refuses; under warn ours still goes in, after the command's own, so the policy's value wins (the
         * runtimes' parsers keep the last) and the container cannot leave the policy's group through its own options.
         * Only the option's name is said, never the line or a value.
         */
        void set(final String name, final String value, final String part) {
            boolean ownQuota = "--cpus".equals(name) && command.option("--cpu-quota").isPresent();
            if (command.option(name).isEmpty() && !ownQuota) {
                inserted.add(name + "=" + value);
                return;
            }
            String own = ownQuota ? "--cpu-quota" : name;
            String conflict = command.describe() + " sets " + own + " itself, and the policy's " + part + " would set " + name;
            if (policy.onUnsupported() == OnUnsupported.FAIL) {
                throw new ContainerRefusal(conflict + " too: leave " + own + " out of the container's options (onUnsupported:"
                        + " 'warn' runs it with the policy's)");
            }
            if (ownQuota) {
                // both set is an error in the runtimes ("Conflicting options"): the command's own quota stays
                warnings.add(conflict + "; the container runs with its own " + own);
                notApplied.add(part + " not applied: the container's own " + own + " stays");
                return;
            }
            warnings.add(conflict + "; the policy's wins (given after the command's own)");
            inserted.add(name + "=" + value);
        }
    }
}
