package dev.schedpolicy.engine.scenario;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A benchmark experiment as read from a scenario file (see docs/benchmark.md for the format).
 *
 * @param name         short id, also the file's base name
 * @param title        one line
 * @param description  what it reproduces
 * @param expect       what the reader should expect to see where the scenario does not say it per topology: in the
 *                     same-agent topology, which the seed experiments measured (see {@link #expectation})
 * @param source       where it was read from
 * @param victim       the measured job (fixed work), or {@link WorkloadSpec#NONE}
 * @param background   the competing load, or {@link WorkloadSpec#NONE}
 * @param policyTarget whom the row's policy is put on
 * @param loadAxis     what the columns vary
 * @param warmup       unmeasured runs before the matrix (the first also calibrates the victim's work)
 * @param full         the full preset
 * @param quick        the {@code --quick} preset
 * @param expectations what to expect per topology ({@code expect.TOPOLOGY} and {@code claims.TOPOLOGY})
 */
public record Scenario(String name, String title, String description, String expect, String source,
        WorkloadSpec victim, WorkloadSpec background, PolicyTarget policyTarget, LoadAxis loadAxis, int warmup,
        Matrix full, Matrix quick, Map<Topology, Expectation> expectations) {

    public Scenario {
        expectations = Map.copyOf(expectations);
    }

    /**
     * What to expect in a topology: its own expectation, or else, in same-agent only, the general {@code expect}
     * text (the seed experiments ran victim and background in one session); empty where the scenario says nothing,
     * so a reference measured in one task group is never shown under another topology's verdict.
     */
    public Optional<Expectation> expectation(final Topology topology) {
        Expectation own = expectations.get(topology);
        if (own != null) {
            return Optional.of(own);
        }
        return topology == Topology.SAME_AGENT && !expect.isBlank()
                ? Optional.of(new Expectation(expect, List.of())) : Optional.empty();
    }

    /** Whom a cell's policy applies to. */
    public enum PolicyTarget { BACKGROUND, VICTIM }

    /** What a load column means. */
    public enum LoadAxis {
        /** load k = k x copies-per-load background processes (threads of one policed background process). */
        BACKGROUND,
        /** load k = k x ncpu victim worker threads; no background. */
        VICTIM_WORKERS
    }

    /** The matrix of a preset. */
    public Matrix matrix(final Matrix.Preset preset) {
        return preset == Matrix.Preset.QUICK ? quick : full;
    }

    /** The scenario's matrix with another victim; title and description then say what actually runs. */
    public Scenario withVictim(final WorkloadSpec value) {
        return new Scenario(name, replacedTitle(value, background), replacedDescription(), expect, source, value,
                background, policyTarget, loadAxis, warmup, full, quick, expectations);
    }

    /** The scenario's matrix with another background; title and description then say what actually runs. */
    public Scenario withBackground(final WorkloadSpec value) {
        return new Scenario(name, replacedTitle(victim, value), replacedDescription(), expect, source, victim, value,
                policyTarget, loadAxis, warmup, full, quick, expectations);
    }

    public Scenario withWarmup(final int value) {
        return new Scenario(name, title, description, expect, source, victim, background, policyTarget, loadAxis,
                value, full, quick, expectations);
    }

    private static String replacedTitle(final WorkloadSpec v, final WorkloadSpec b) {
        return "victim " + shown(v) + " vs background " + shown(b) + " (workloads given on the command line)";
    }

    private static String shown(final WorkloadSpec w) {
        return w.isCommand() ? "'" + w.command() + "'" : w.describe();
    }

    /** Keeps the scenario's own title in the description, once, however many workloads are replaced. */
    private String replacedDescription() {
        String prefix = "The " + name + " scenario's matrix run with workloads given on the command line";
        return description.startsWith(prefix) ? description : prefix + "; the scenario itself measures: " + title;
    }
}
