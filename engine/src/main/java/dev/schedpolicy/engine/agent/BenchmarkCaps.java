package dev.schedpolicy.engine.agent;

import dev.schedpolicy.engine.bench.BenchOptions;
import dev.schedpolicy.engine.scenario.Matrix;

import java.io.Serial;
import java.io.Serializable;
import java.time.Duration;
import java.util.Locale;

/**
 * The administrator's caps on what one benchmark may ask of an agent that others share: its highest load (background
 * copies per CPU), its repetitions, and its length in minutes. A benchmark over a cap is refused before it starts, in
 * one line that names the cap and where it is set; one that outruns its length anyway (the length is estimated from
 * the plan) is stopped at the cap and keeps the runs done so far. Caps cross remoting as plain values.
 *
 * @param maxLoad        the highest load multiple, 1..{@value Matrix#MAX_LOAD}
 * @param maxRepetitions the most repetitions of every cell, 1..{@value Matrix#MAX_REPETITIONS}
 * @param maxMinutes     the longest a benchmark may run, in minutes, 1..{@value #MAX_MINUTES}
 * @param setIn          where an administrator changes them, in words ("Manage Jenkins » System » Sched Policy")
 */
public record BenchmarkCaps(int maxLoad, int maxRepetitions, int maxMinutes, String setIn) implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;

    /** A day: longer than any preset of the built-in scenarios by far, and still an end. */
    public static final int MAX_MINUTES = 1440;
    /** Every preset of the built-in scenarios fits (the largest: seed-cpu-looper's full one, loads to 7, 5 repetitions). */
    public static final int DEFAULT_MAX_LOAD = 8;
    public static final int DEFAULT_MAX_REPETITIONS = 50;
    /** The longest preset of the built-in scenarios is estimated at 85 minutes (a full one of 10 policies and 8 loads). */
    public static final int DEFAULT_MAX_MINUTES = 120;

    public BenchmarkCaps {
        check("the benchmark's highest load", maxLoad, 1, (int) Matrix.MAX_LOAD);
        check("the benchmark's most repetitions", maxRepetitions, Matrix.MIN_REPETITIONS, Matrix.MAX_REPETITIONS);
        check("the benchmark's longest run in minutes", maxMinutes, 1, MAX_MINUTES);
    }

    /** The defaults, set in {@code setIn}. */
    public static BenchmarkCaps defaults(final String setIn) {
        return new BenchmarkCaps(DEFAULT_MAX_LOAD, DEFAULT_MAX_REPETITIONS, DEFAULT_MAX_MINUTES, setIn);
    }

    /**
     * The caps of stored settings that may be out of range (an older or hand-edited configuration): never throws; 0 or
     * less is the default, and a value above the engine's own bound is that bound.
     */
    public static BenchmarkCaps lenient(final int maxLoad, final int maxRepetitions, final int maxMinutes, final String setIn) {
        return new BenchmarkCaps(within(maxLoad, DEFAULT_MAX_LOAD, (int) Matrix.MAX_LOAD),
                within(maxRepetitions, DEFAULT_MAX_REPETITIONS, Matrix.MAX_REPETITIONS), within(maxMinutes, DEFAULT_MAX_MINUTES, MAX_MINUTES),
                setIn);
    }

    /** Throws, in one line naming the cap and where it is set, when {@code options} ask for more than the caps allow. */
    public void check(final BenchOptions options) {
        double load = options.matrix().loads().stream().mapToDouble(Double::doubleValue).max().orElse(0);
        if (load > maxLoad) {
            throw refusal("load " + number(load) + " (" + number(load) + " background copies per CPU)", "highest load", maxLoad,
                    "use loads up to " + maxLoad);
        }
        if (options.matrix().repetitions() > maxRepetitions) {
            throw refusal(options.matrix().repetitions() + " repetitions", "most repetitions", maxRepetitions,
                    "use repetitions up to " + maxRepetitions);
        }
        double minutes = options.estimatedSeconds() / 60;
        if (minutes > maxMinutes) {
            throw refusal("about " + number(Math.ceil(minutes)) + " minutes (estimated from its " + options.matrix().repetitions()
                    + " repetitions, " + options.matrix().policies().size() + " policies and " + options.matrix().loads().size()
                    + " loads)", "longest run", maxMinutes, "ask for fewer repetitions, policies or loads, or quick: true");
        }
    }

    /** How long a benchmark may run before it is stopped. */
    public Duration longest() {
        return Duration.ofMinutes(maxMinutes);
    }

    /** The reason a benchmark that outran its length is stopped with. */
    String stoppedReason() {
        return "stopped at the administrator's cap of " + maxMinutes + (maxMinutes == 1 ? " minute" : " minutes") + " for one benchmark ("
                + setIn + ")";
    }

    private IllegalArgumentException refusal(final String asked, final String cap, final int value, final String instead) {
        return new IllegalArgumentException("schedBenchmark asks for " + asked + ", above the administrator's cap (" + cap + ": "
                + value + ", set in " + setIn + "): " + instead);
    }

    private static String number(final double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : String.format(Locale.ROOT, "%s", value);
    }

    private static int within(final int value, final int fallback, final int max) {
        return value <= 0 ? fallback : Math.min(value, max);
    }

    private static void check(final String what, final int value, final int min, final int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(what + " must be " + min + ".." + max + ", not " + value);
        }
    }
}
