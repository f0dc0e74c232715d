package dev.schedpolicy.engine.bench;

import dev.schedpolicy.engine.report.BenchReport;
import dev.schedpolicy.engine.report.Stat;
import dev.schedpolicy.engine.report.TextTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Per topology, which policies met both targets at every load above 0 (see {@link BenchReport.Verdict}). */
final class Verdicts {
    private Verdicts() {
    }

    static List<BenchReport.Verdict> of(final List<String> topologies, final List<String> policies,
            final List<BenchReport.Cell> cells) {
        List<BenchReport.Verdict> out = new ArrayList<>();
        for (String topology : topologies) {
            List<String> protect = new ArrayList<>();
            List<BenchReport.Shortfall> fail = new ArrayList<>();
            for (String policy : policies) {
                List<BenchReport.Cell> mine = cells.stream().filter(c -> topology.equals(c.topology())
                        && c.policy().equals(policy) && !c.fromBaseline() && c.load() > 0).toList();
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
            out.add(new BenchReport.Verdict(topology, protect, fail));
        }
        return out;
    }

    /** The worst miss over the policy's loads: the victim first, then the background. */
    private static Optional<String> shortfall(final List<BenchReport.Cell> cells) {
        BenchReport.Cell worstVictim = null;
        BenchReport.Cell worstBackground = null;
        for (BenchReport.Cell c : cells) {
            if (below(c.keptPct(), BenchReport.PROTECT_KEPT_PCT)
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

    private static boolean below(final Stat s, final double target) {
        return s != null && !Double.isNaN(s.mean()) && s.mean() < target;
    }
}
