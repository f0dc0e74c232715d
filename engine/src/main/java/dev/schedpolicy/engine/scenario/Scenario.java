package dev.schedpolicy.engine.scenario;

/**
 * A benchmark experiment as read from a scenario file (see docs/benchmark.md for the format).
 *
 * @param name         short id, also the file's base name
 * @param title        one line
 * @param description  what it reproduces
 * @param expect       what the reader should expect to see
 * @param source       where it was read from
 * @param victim       the measured job (fixed work), or {@link WorkloadSpec#NONE}
 * @param background   the competing load, or {@link WorkloadSpec#NONE}
 * @param policyTarget whom the row's policy is put on
 * @param loadAxis     what the columns vary
 * @param warmup       unmeasured runs before the matrix (the first also calibrates the victim's work)
 * @param full         the full preset
 * @param quick        the {@code --quick} preset
 */
public record Scenario(String name, String title, String description, String expect, String source,
        WorkloadSpec victim, WorkloadSpec background, PolicyTarget policyTarget, LoadAxis loadAxis, int warmup,
        Matrix full, Matrix quick) {

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
                background, policyTarget, loadAxis, warmup, full, quick);
    }

    /** The scenario's matrix with another background; title and description then say what actually runs. */
    public Scenario withBackground(final WorkloadSpec value) {
        return new Scenario(name, replacedTitle(victim, value), replacedDescription(), expect, source, victim, value,
                policyTarget, loadAxis, warmup, full, quick);
    }

    public Scenario withWarmup(final int value) {
        return new Scenario(name, title, description, expect, source, victim, background, policyTarget, loadAxis,
                value, full, quick);
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
