package dev.schedpolicy.engine.guard;

import dev.schedpolicy.engine.proc.ProcFs;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Competitors among processes someone else names: on a Jenkins agent, the processes of the agent's other launches
 * (the guard must never touch what the agent did not launch); in tests, the loads they start.
 */
public final class ListedCompetitors implements Competitors {
    private final Supplier<? extends Collection<Long>> pids;
    private final BusyScan busyScan;
    private List<Competitor> busy = List.of();

    public ListedCompetitors(final ProcFs proc, final Supplier<? extends Collection<Long>> pids, final double busyShare) {
        this.pids = pids;
        this.busyScan = new BusyScan(proc, busyShare);
    }

    @Override
    public void scan(final Set<Long> exclude) {
        List<Long> candidates = new ArrayList<>(pids.get());
        candidates.removeAll(exclude);
        busy = busyScan.scan(candidates);
    }

    @Override
    public List<Competitor> busy() {
        return busy;
    }
}
