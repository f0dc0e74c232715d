package dev.schedpolicy.engine.bench;

import dev.schedpolicy.engine.guard.GuardHomes;
import dev.schedpolicy.engine.guard.GuardLoop;
import dev.schedpolicy.engine.guard.GuardReport;
import dev.schedpolicy.engine.guard.GuardSettings;
import dev.schedpolicy.engine.guard.ListedCompetitors;
import dev.schedpolicy.engine.guard.Lowerings;
import dev.schedpolicy.engine.launch.LaunchConfig;
import dev.schedpolicy.engine.jna.JnaKernel;
import dev.schedpolicy.engine.proc.ProcFs;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@code guard} row of a run: the background runs unlowered and the victim is guarded, as {@code withSchedGuard}
 * guards a test step on an agent: while the victim waits for a CPU, the background's busy processes are lowered (the
 * strongest way this machine offers) and put back when it stops waiting. It touches the run's own background only.
 */
final class BenchGuard implements AutoCloseable {
    static final BenchGuard NONE = new BenchGuard(null, Set.of(), "");

    private final GuardLoop loop;
    /** The victims' root processes, which the loop reads (with their descendants) at each period. */
    private final Set<Long> watched;
    private final String unguarded;

    private BenchGuard(final GuardLoop loop, final Set<Long> watched, final String unguarded) {
        this.loop = loop;
        this.watched = watched;
        this.unguarded = unguarded;
    }

    /** Guards the victims {@link #watch(long) watched} from now against {@code bg}; unguarded, with why, when nothing here can lower. */
    static BenchGuard start(final Background bg) {
        ProcFs proc = ProcFs.system();
        Lowerings lowerings = Lowerings.available(JnaKernel.get(), proc, GuardHomes.in(LaunchConfig.defaults()));
        if (lowerings.none()) {
            return new BenchGuard(null, Set.of(), "guard: nothing here can lower other processes (" + String.join("; ",
                    lowerings.missing()) + "): the row ran unguarded");
        }
        GuardSettings settings = GuardSettings.defaults();
        List<Long> background = bg.cpuPids();
        ListedCompetitors competitors = new ListedCompetitors(proc, () -> trees(proc, background), settings.busyShare());
        Set<Long> watched = ConcurrentHashMap.newKeySet();
        GuardLoop loop = new GuardLoop(proc, () -> trees(proc, watched), "bench", competitors, lowerings.lowerings(), settings,
                Set.of(ProcessHandle.current().pid()));
        loop.start();
        return new BenchGuard(loop, watched, "");
    }

    /** A victim process to guard (with its descendants). */
    void watch(final long pid) {
        if (loop != null) {
            watched.add(pid);
        }
    }

    /** Stops guarding, puts everything back, and says what the guard did in one line ("" for a row without a guard). */
    String finish() {
        if (loop == null) {
            return unguarded;
        }
        GuardReport report = loop.finish();
        return "guard: " + String.join("; ", report.describe());
    }

    @Override
    public void close() {
        if (loop != null) {
            loop.close();
        }
    }

    private static List<Long> trees(final ProcFs proc, final Collection<Long> roots) {
        List<Long> out = new ArrayList<>();
        for (long pid : roots) {
            out.add(pid);
            out.addAll(proc.descendants(pid).orElse(List.of()));
        }
        return out;
    }
}
