package dev.schedpolicy.engine.bench;

import dev.schedpolicy.engine.cgroup.CgroupException;
import dev.schedpolicy.engine.cgroup.CgroupSystem;
import dev.schedpolicy.engine.cgroup.IdleParent;
import dev.schedpolicy.engine.jna.JnaKernel;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Where a run's cgroup policies (quota, weight, cpu-idle) make their groups: the directory given on the command
 * line, else the machine-wide idle parent when it exists and is usable, else the launcher's default (the copy's
 * own group in outside-agent, as under an agent's cgroup). Only under the idle parent can a cpu.idle group reach the
 * neighbours outside an agent, so the choice decides what the outside-agent verdict can say.
 *
 * @param parent     the directory, or empty for the launcher's default
 * @param idleParent whether that directory is the machine-wide idle parent (set up: cpu.idle reads 1)
 * @param idlePath   where the machine-wide idle parent is or would be
 * @param idleDetail the idle parent's state in words, e.g. "not set up (...)"
 */
record CgroupParentChoice(Optional<Path> parent, boolean idleParent, String idlePath, String idleDetail) {

    /**
     * The choice for a run.
     *
     * @param given       --cgroup-parent (empty: not given)
     * @param idleParent  where to look for the idle parent (empty: the default place, see {@link IdleParent#of})
     * @param cgroups     the machine's cgroups
     */
    static CgroupParentChoice resolve(final Optional<Path> given, final Optional<Path> idleParent,
            final Supplier<CgroupSystem> cgroups) {
        IdleParent.Status status;
        try {
            CgroupSystem system = cgroups.get();
            status = idleParent.map(p -> IdleParent.at(system, p)).orElseGet(() -> IdleParent.of(system))
                    .status(JnaKernel.get().geteuid());
        } catch (CgroupException | UncheckedIOException e) {
            return new CgroupParentChoice(given, false, idleParent.map(Path::toString).orElse(IdleParent.NAME),
                    "cannot be used here: " + e.getMessage());
        }
        if (given.isPresent()) {
            boolean same = given.get().normalize().equals(Path.of(status.path()).normalize()) && status.idle();
            return new CgroupParentChoice(given, same, status.path(), status.detail());
        }
        return status.works()
                ? new CgroupParentChoice(Optional.of(Path.of(status.path())), true, status.path(), status.detail())
                : new CgroupParentChoice(Optional.empty(), false, status.path(), status.detail());
    }
}
