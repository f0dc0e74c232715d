package dev.schedpolicy.engine.guard;

import dev.schedpolicy.engine.proc.ProcFs;
import dev.schedpolicy.engine.proc.TaskStat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The command line's competitors: processes of one user (the caller's) that used at least a share of a CPU since the
 * last scan, found by reading /proc. Never returned: kernel threads, PID 1, the caller's own process and its
 * ancestors (the shell that started it, a terminal, an ssh session), and the PIDs the guard excludes.
 */
public final class SameUserCompetitors implements Competitors {
    private final ProcFs proc;
    private final int uid;
    private final Set<Long> never;
    private final BusyScan busyScan;
    private List<Competitor> busy = List.of();

    public SameUserCompetitors(final ProcFs proc, final int uid, final double busyShare, final long self) {
        this.proc = proc;
        this.uid = uid;
        this.never = selfAndAncestors(proc, self);
        this.busyScan = new BusyScan(proc, busyShare);
    }

    private static Set<Long> selfAndAncestors(final ProcFs proc, final long self) {
        Set<Long> out = new HashSet<>();
        long pid = self;
        while (pid > 1 && out.add(pid)) {
            Optional<TaskStat> stat = proc.stat(pid);
            if (stat.isEmpty()) {
                break;
            }
            pid = stat.get().ppid();
        }
        out.add(1L);
        return out;
    }

    @Override
    public void scan(final Set<Long> exclude) {
        List<Long> candidates = new ArrayList<>();
        for (long pid : proc.pids()) {
            if (!never.contains(pid) && !exclude.contains(pid) && ownedByUser(proc.root().resolve(Long.toString(pid)))) {
                candidates.add(pid);
            }
        }
        busy = busyScan.scan(candidates);
    }

    private boolean ownedByUser(final Path dir) {
        try {
            return ((Integer) Files.getAttribute(dir, "unix:uid")) == uid;
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    @Override
    public List<Competitor> busy() {
        return busy;
    }
}
