package dev.schedpolicy.engine.scenario;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/** Reads the header's {@code expect.TOPOLOGY} and {@code claims.TOPOLOGY} keys. */
final class ExpectationParser {
    static final String EXPECT_PREFIX = "expect.";
    static final String CLAIMS_PREFIX = "claims.";

    private ExpectationParser() {
    }

    static boolean isPerTopologyKey(final String key) {
        return key.startsWith(EXPECT_PREFIX) || key.startsWith(CLAIMS_PREFIX);
    }

    /**
     * The {@code expect.TOPOLOGY} and {@code claims.TOPOLOGY} keys: what to expect in each topology. Claims without
     * words, or words for a topology the scenario does not know, are refused, so every claim is explained.
     */
    static Map<Topology, Expectation> expectations(final String file, final Map<String, ScenarioEntry> top,
            final Consumer<String> policyValidator) {
        Map<Topology, String> texts = new LinkedHashMap<>();
        Map<Topology, List<Claim>> claims = new LinkedHashMap<>();
        for (ScenarioEntry e : top.values()) {
            if (!isPerTopologyKey(e.key())) {
                continue;
            }
            boolean words = e.key().startsWith(EXPECT_PREFIX);
            String id = e.key().substring((words ? EXPECT_PREFIX : CLAIMS_PREFIX).length());
            Topology t;
            try {
                t = Topology.parse(id);
            } catch (IllegalArgumentException ex) {
                throw new ScenarioException(file, e.line(), e.keyColumn(), "'" + e.key() + "': " + ex.getMessage());
            }
            if (words) {
                if (e.value().isBlank()) {
                    throw ScenarioEntry.error(file, e, "'" + e.key() + "' is empty");
                }
                texts.put(t, e.value());
            } else {
                List<Claim> list = new ArrayList<>();
                for (ScenarioEntry.Token token : ScenarioEntry.split(file, e)) {
                    try {
                        Claim c = Claim.parse(token.text());
                        policyValidator.accept(c.policy());
                        ClaimRules.violation(t, c).ifPresent(why -> {
                            throw new IllegalArgumentException(why);
                        });
                        list.add(c);
                    } catch (RuntimeException ex) {
                        throw new ScenarioException(file, e.line(), token.column(), ex.getMessage());
                    }
                }
                claims.put(t, list);
            }
        }
        Map<Topology, Expectation> out = new LinkedHashMap<>();
        for (Map.Entry<Topology, List<Claim>> c : claims.entrySet()) {
            if (!texts.containsKey(c.getKey())) {
                ScenarioEntry e = top.get(CLAIMS_PREFIX + c.getKey().id());
                throw new ScenarioException(file, e == null ? 1 : e.line(), 1, "claims for " + c.getKey().id()
                        + " need words too: add 'expect." + c.getKey().id() + " = ...'");
            }
        }
        texts.forEach((t, text) -> out.put(t, new Expectation(text, claims.getOrDefault(t, List.of()))));
        return out;
    }
}
