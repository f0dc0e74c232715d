package dev.schedpolicy.engine.scenario;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/** Reads a {@code [matrix]} or {@code [quick]} section: policies, loads, repetitions, duration, topologies. */
final class MatrixParser {
    private final String file;
    private final Consumer<String> policyValidator;

    MatrixParser(final String file, final Consumer<String> policyValidator) {
        this.file = file;
        this.policyValidator = policyValidator;
    }

    Matrix matrix(final Map<String, ScenarioEntry> entries, final int sectionLine, final Matrix base) {
        List<String> policies;
        ScenarioEntry p = entries.get("policies");
        if (p == null) {
            if (base == null) {
                throw new ScenarioException(file, sectionLine, 1, "[matrix] needs 'policies'");
            }
            policies = base.policies();
        } else {
            policies = policyList(p);
        }
        List<Double> loads;
        ScenarioEntry l = entries.get("loads");
        if (l == null) {
            if (base == null) {
                throw new ScenarioException(file, sectionLine, 1, "[matrix] needs 'loads'");
            }
            loads = base.loads();
        } else {
            loads = loadList(l);
        }
        int reps = ScenarioEntry.intValue(file, entries.get("repetitions"), base == null ? 5 : base.repetitions(),
                Matrix.MIN_REPETITIONS, Matrix.MAX_REPETITIONS);
        long duration = base == null ? 2000 : base.durationMs();
        ScenarioEntry d = entries.get("duration");
        if (d != null) {
            duration = ScenarioEntry.durationValue(file, d);
        }
        int maxSlowdown = ScenarioEntry.intValue(file, entries.get("max-slowdown"),
                base == null ? Matrix.DEFAULT_MAX_SLOWDOWN : base.maxSlowdown(), Matrix.MIN_SLOWDOWN, Matrix.MAX_SLOWDOWN);
        List<Topology> topologies = base == null ? List.of(Topology.SAME_AGENT) : base.topologies();
        ScenarioEntry t = entries.get("topologies");
        if (t != null) {
            topologies = new ArrayList<>();
            for (ScenarioEntry.Token token : ScenarioEntry.split(file, t)) {
                try {
                    Topology parsed = Topology.parse(token.text());
                    if (topologies.contains(parsed)) {
                        throw new IllegalArgumentException("topology '" + token.text() + "' is listed twice");
                    }
                    topologies.add(parsed);
                } catch (IllegalArgumentException ex) {
                    throw new ScenarioException(file, t.line(), token.column(), ex.getMessage());
                }
            }
        }
        try {
            return new Matrix(policies, loads, reps, duration, maxSlowdown, topologies);
        } catch (IllegalArgumentException e) {
            throw new ScenarioException(file, sectionLine, 1, e.getMessage());
        }
    }

    private List<String> policyList(final ScenarioEntry e) {
        List<String> out = new ArrayList<>();
        for (ScenarioEntry.Token t : ScenarioEntry.split(file, e)) {
            try {
                policyValidator.accept(t.text());
            } catch (RuntimeException ex) {
                throw new ScenarioException(file, e.line(), t.column(), "policy '" + t.text() + "': " + ex.getMessage());
            }
            if (out.contains(t.text())) {
                throw new ScenarioException(file, e.line(), t.column(), "policy '" + t.text() + "' is listed twice");
            }
            out.add(t.text());
        }
        return out;
    }

    private List<Double> loadList(final ScenarioEntry e) {
        List<Double> out = new ArrayList<>();
        for (ScenarioEntry.Token t : ScenarioEntry.split(file, e)) {
            double v = ScenarioEntry.doubleValue(file, e, t.text(), t.column());
            if (!(v >= Matrix.MIN_LOAD && v <= Matrix.MAX_LOAD)) {
                throw new ScenarioException(file, e.line(), t.column(), "load " + t.text()
                        + " is out of range; loads are multiples of the CPU count from 0 to 64");
            }
            if (out.contains(v)) {
                throw new ScenarioException(file, e.line(), t.column(), "load " + t.text() + " is listed twice");
            }
            out.add(v);
        }
        return out;
    }
}
