package dev.schedpolicy.engine.bench;

import dev.schedpolicy.engine.report.BenchReport;
import dev.schedpolicy.engine.report.Stat;
import dev.schedpolicy.engine.report.TextTable;
import dev.schedpolicy.engine.scenario.Claim;
import dev.schedpolicy.engine.scenario.Expectation;
import dev.schedpolicy.engine.scenario.Scenario;
import dev.schedpolicy.engine.scenario.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Per topology, in the order of the questions a Jenkins user asks (see {@link Topology}), which policies met both
 * targets at every load above 0 (see {@link BenchReport.Verdict}), what the scenario expected there, and where
 * this run differs from that expectation.
 */
final class TopologyVerdicts {
    private TopologyVerdicts() {
    }

    static List<BenchReport.Verdict> of(final List<Topology> topologies, final List<String> policies,
            final List<BenchReport.Cell> cells, final Scenario scenario, final CgroupParentChoice parent) {
        List<BenchReport.Verdict> out = new ArrayList<>();
        for (Topology topology : topologies) {
            List<String> protect = new ArrayList<>();
            List<BenchReport.Shortfall> fail = new ArrayList<>();
            for (String policy : policies) {
                List<BenchReport.Cell> mine = measured(cells, topology, policy);
                if (mine.isEmpty()) {
                    continue; // not measured (skipped here): no verdict
                }
                Optional<String> shortfall = shortfall(mine);
                if (shortfall.isPresent()) {
                    fail.add(new BenchReport.Shortfall(policy, shortfall.get()));
                } else {
                    protect.add(policy + widestCi(mine));
                }
            }
            Optional<Expectation> expectation = scenario.expectation(topology);
            List<Claim> claims = expectation.map(e -> e.claimsFor(parent.idleParent())).orElse(List.of());
            List<String> differs = new ArrayList<>();
            for (Claim c : claims) {
                worstKept(measured(cells, topology, c.policy())).flatMap(w -> c.contradiction(w.keptPct().mean(),
                        TextTable.formatLoad(w.load()))).ifPresent(differs::add);
            }
            out.add(new BenchReport.Verdict(topology.id(), protect, fail, topology.title(), topology.meaning(),
                    note(topology, parent), expectation.map(Expectation::text).orElse(null),
                    claims.stream().map(Claim::toString).toList(), differs));
        }
        return out;
    }

    /**
     * What limits the answer in this topology. Outside the agent only a cpu.idle group under the machine-wide idle
     * parent reaches the neighbours: per-task policies stay in their task group, and a group made under the agent's
     * own cgroup is idle only against the agent's other groups.
     */
    static String note(final Topology topology, final CgroupParentChoice parent) {
        if (topology != Topology.OUTSIDE_AGENT) {
            return null;
        }
        if (parent.idleParent()) {
            return "cgroup policies made their groups under the machine-wide idle parent " + parent.idlePath();
        }
        String why = "nice, batch and idle never reach another task group, and a build's cpu.idle group under its"
                + " agent's own cgroup yields only to the agent's other groups";
        if (parent.parent().isPresent()) {
            return "cgroup policies made their groups under " + parent.parent().get() + ", not under the machine-wide"
                    + " idle parent (" + parent.idlePath() + ": " + parent.idleDetail() + "); " + why;
        }
        return "nothing can protect these neighbours until an administrator runs 'sudo schedpolicy setup --user <agent"
                + " user>': there is no usable machine-wide idle parent (" + parent.idlePath() + ": "
                + parent.idleDetail() + "); " + why + "; bench then measures cpu-idle under it";
    }

    private static List<BenchReport.Cell> measured(final List<BenchReport.Cell> cells, final Topology topology,
            final String policy) {
        return cells.stream().filter(c -> topology.id().equals(c.topology()) && c.policy().equals(policy)
                && !c.fromBaseline() && c.load() > 0 && c.keptPct() != null && !Double.isNaN(c.keptPct().mean()))
                .toList();
    }

    /** The cell where the victim kept the least. */
    private static Optional<BenchReport.Cell> worstKept(final List<BenchReport.Cell> cells) {
        return cells.stream().min(java.util.Comparator.comparingDouble(c -> c.keptPct().mean()));
    }

    /** The worst miss over the policy's loads: the victim first, then the background. */
    private static Optional<String> shortfall(final List<BenchReport.Cell> cells) {
        BenchReport.Cell worstVictim = null;
        BenchReport.Cell worstBackground = null;
        for (BenchReport.Cell c : cells) {
            if (victimShort(c.keptPct())
                    && (worstVictim == null || c.keptPct().mean() < worstVictim.keptPct().mean())) {
                worstVictim = c;
            }
            if (below(c.backgroundFreeCpuPct(), BenchReport.PROTECT_BACKGROUND_PCT) && (worstBackground == null
                    || c.backgroundFreeCpuPct().mean() < worstBackground.backgroundFreeCpuPct().mean())) {
                worstBackground = c;
            }
        }
        if (worstVictim != null) {
            return Optional.of(String.format(Locale.ROOT, "victim %.1f%% at load %s", worstVictim.keptPct().mean(),
                    TextTable.formatLoad(worstVictim.load())));
        }
        if (worstBackground != null) {
            return Optional.of(String.format(Locale.ROOT, "background %.1f%% of free CPU at load %s",
                    worstBackground.backgroundFreeCpuPct().mean(), TextTable.formatLoad(worstBackground.load())));
        }
        return Optional.empty();
    }

    /** A protecting policy whose kept % is not yet tight: " (CI ±3.1)" with the widest half-width, else "". */
    private static String widestCi(final List<BenchReport.Cell> cells) {
        double widest = cells.stream().map(BenchReport.Cell::keptPct).filter(s -> s != null && s.n() > 1)
                .mapToDouble(Stat::ciHalfWidth).max().orElse(0);
        return widest > BenchReport.PROTECT_CI_POINTS ? String.format(Locale.ROOT, " (CI ±%.1f)", widest) : "";
    }

    /**
     * The victim missed its target when the run shows it: even the upper end of the 95% CI of its kept % stays
     * below {@link BenchReport#PROTECT_KEPT_PCT}, or the mean is below {@link BenchReport#PROTECT_KEPT_FLOOR_PCT}.
     */
    static boolean victimShort(final Stat kept) {
        if (kept == null || Double.isNaN(kept.mean())) {
            return false;
        }
        double ci = kept.n() > 1 && !Double.isNaN(kept.ciHalfWidth()) ? kept.ciHalfWidth() : 0;
        return kept.mean() < BenchReport.PROTECT_KEPT_FLOOR_PCT || kept.mean() + ci < BenchReport.PROTECT_KEPT_PCT;
    }

    private static boolean below(final Stat s, final double target) {
        return s != null && !Double.isNaN(s.mean()) && s.mean() < target;
    }
}
