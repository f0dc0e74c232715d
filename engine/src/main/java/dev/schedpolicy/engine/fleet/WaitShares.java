package dev.schedpolicy.engine.fleet;

import dev.schedpolicy.engine.proc.SchedStat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Per agent, the run-queue wait share of its unlowered launches over recent builds: total wait over total runnable
 * time (wait + CPU the samples saw), so long launches weigh by their runnable time rather than one vote each. Lowered
 * launches are left out: they are meant to wait. Launches whose wait was not measured are left out too.
 */
public final class WaitShares {
    private WaitShares() {
    }

    /** One measured launch on {@code agent}; {@code waitNanos} -1 when not measured. */
    public record Launch(String agent, boolean lowered, long waitNanos, long sampledCpuNanos) {
    }

    /** An agent's share, 0..1, over {@code launches} launches. */
    public record AgentShare(String agent, double share, int launches) {
        public String text() {
            return String.format(Locale.ROOT, "%.1f%% over %d launch%s", share * 100, launches, launches == 1 ? "" : "es");
        }
    }

    public static Map<String, AgentShare> ofUnlowered(final List<Launch> launches) {
        Map<String, long[]> sums = new LinkedHashMap<>();
        for (Launch l : launches) {
            if (l.lowered() || l.waitNanos() < 0) {
                continue;
            }
            long[] s = sums.computeIfAbsent(l.agent(), k -> new long[3]);
            s[0] += l.waitNanos();
            s[1] += Math.max(0, l.sampledCpuNanos());
            s[2]++;
        }
        Map<String, AgentShare> out = new LinkedHashMap<>();
        sums.forEach((agent, s) -> out.put(agent, new AgentShare(agent, SchedStat.waitShare(s[0], s[1]), (int) s[2])));
        return out;
    }

    /** The combined share of some launches (a build's), or empty when none was measured. */
    public static Optional<Double> combined(final List<Launch> launches) {
        List<Launch> all = new ArrayList<>();
        for (Launch l : launches) {
            all.add(new Launch("", false, l.waitNanos(), l.sampledCpuNanos()));
        }
        AgentShare s = ofUnlowered(all).get("");
        return s == null ? Optional.empty() : Optional.of(s.share());
    }
}
