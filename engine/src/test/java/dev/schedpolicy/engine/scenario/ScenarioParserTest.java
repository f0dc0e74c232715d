package dev.schedpolicy.engine.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ScenarioParserTest {
    private final ScenarioParser parser = new ScenarioParser(p -> {
        if (p.startsWith("bogus")) {
            throw new IllegalArgumentException("unknown policy token");
        }
    });

    private static final String GOOD = """
            # a comment
            name = demo
            title = Demo
            description = first line
              continued
            [victim]
            workload = cpu-victim
            workers = 2
            [background]
            workload = cpu-looper
            per-load = ncpu
            [matrix]
            policies = default, nice19 , idle
            loads = 0, 1, 2.5
            repetitions = 4
            duration = 1.5s
            """;

    @Test
    void shouldParseAWellFormedScenario() {
        Scenario s = parser.parse("demo.scenario", GOOD);
        assertThat(s.name()).isEqualTo("demo");
        assertThat(s.description()).isEqualTo("first line continued");
        assertThat(s.victim().builtin()).isEqualTo(Builtin.CPU_VICTIM);
        assertThat(s.victim().workers()).isEqualTo(2);
        assertThat(s.background().copiesPerLoad(8)).isEqualTo(8);
        assertThat(s.full().policies()).containsExactly("default", "nice19", "idle");
        assertThat(s.full().loads()).containsExactly(0.0, 1.0, 2.5);
        assertThat(s.full().durationMs()).isEqualTo(1500);
        assertThat(s.quick().repetitions()).isEqualTo(3);
        assertThat(s.full().maxSlowdown()).isEqualTo(Matrix.DEFAULT_MAX_SLOWDOWN);
    }

    @Test
    void shouldTakeAQuickPresetCapOnStarvedVictims() {
        Scenario s = parser.parse("demo.scenario", GOOD + "[quick]\nmax-slowdown = 5\n");
        assertThat(s.quick().maxSlowdown()).isEqualTo(5);
        assertThat(s.quick().customised(null, null, 2, null).maxSlowdown()).isEqualTo(5);
        assertThat(s.full().maxSlowdown()).isEqualTo(10);
    }

    static Stream<Arguments> badScenarios() {
        return Stream.of(
            Arguments.of("name = demo\n[victim]\nworkload = cpu-looper\n[matrix]\npolicies=default\nloads=1", "3:12", "runs forever"),
            Arguments.of("name = demo\n[victim]\nworkload = cpu-victim\nworkers = many\n[matrix]\npolicies=default\nloads=1", "4:11", "whole number"),
            Arguments.of("name = demo\n[victim]\nworkload = cpu-victim\n[matrix]\npolicies = default, bogus1\nloads=1", "5:21", "policy 'bogus1': unknown policy token"),
            Arguments.of("name = demo\n[victim]\nworkload = cpu-victim\n[matrix]\npolicies = default\nloads = 1, x", "6:12", "'x' is not a number"),
            Arguments.of("name = demo\n[victim]\nworkload = cpu-victim\n[matrix]\npolicies = default\nloads = 1,,2", "6:11", "empty item"),
            Arguments.of("name = demo\n[victm]\n", "2:2", "unknown section [victm]"),
            Arguments.of("name = demo\nfoo = 1", "2:1", "unknown key 'foo'"),
            Arguments.of("name = demo\n[victim]\nworkload = cpu-victim\n[matrix]\npolicies = default\nloads = 1\nmax-slowdown = 1",
                    "7:16", "between 2 and 100"),
            Arguments.of("name = demo\nname = again", "2:1", "set twice (first on line 1)"),
            Arguments.of("title = x", "1:1", "'name' is required"),
            Arguments.of("name = Demo!", "1:8", "lower-case letters"),
            Arguments.of("name = demo\n[victim]\nworkload = cpu-victim\n[matrix]\npolicies = default\nloads = 1\nduration = 2 minutes", "7:12", "duration must look like"),
            Arguments.of("name = demo\njust words", "2:1", "expected 'key = value'"));
    }

    @ParameterizedTest
    @MethodSource("badScenarios")
    void shouldNameFileLineAndColumnOfEachError(final String text, final String where, final String message) {
        assertThatThrownBy(() -> parser.parse("x.scenario", text))
                .isInstanceOf(ScenarioException.class)
                .hasMessageStartingWith("x.scenario:" + where + ": ")
                .hasMessageContaining(message);
    }

    @Test
    void shouldReadTopologiesAndRejectAnUnknownOneWithItsColumn() {
        String text = "name = t\n[victim]\nworkload = cpu-victim\n[background]\nworkload = compile-loop\nclasses = 20\n"
                + "[matrix]\npolicies = default\nloads = 1\ntopologies = same-group, other-cgroup\n";
        Scenario s = new ScenarioParser(p -> { }).parse("x.scenario", text);
        assertThat(s.full().topologies()).containsExactly(Topology.SAME_AGENT, Topology.OUTSIDE_AGENT);
        assertThat(s.quick().topologies()).containsExactly(Topology.SAME_AGENT, Topology.OUTSIDE_AGENT);
        assertThat(s.background().params()).containsEntry("classes", "20");
        assertThatThrownBy(() -> new ScenarioParser(p -> { }).parse("x.scenario", text.replace("other-cgroup", "far")))
                .hasMessageStartingWith("x.scenario:10:26: ").hasMessageContaining("unknown topology 'far'");
        assertThatThrownBy(() -> new ScenarioParser(p -> { }).parse("x.scenario", text.replace("compile-loop", "cpu-looper")))
                .hasMessageContaining("'classes' applies to the compile-loop workload only");
    }

    @Test
    void shouldLoadEveryShippedScenario() {
        List<Scenario> all = new ScenarioCatalog(p -> { }).list();
        assertThat(all).extracting(Scenario::name).containsExactlyElementsOf(ScenarioCatalog.BUILT_IN);
        Scenario seed = all.get(0);
        // 4 policies x 2 loads x 3 repetitions x 2 topologies: the two questions and the guard, within 3 minutes on 2 CPUs
        assertThat(seed.quick().cells()).isEqualTo(4 * 2 * 3 * 2);
        assertThat(seed.quick().topologies()).containsExactly(Topology.SAME_AGENT, Topology.OUTSIDE_AGENT);
        assertThat(seed.full().topologies()).containsExactly(Topology.SAME_AGENT, Topology.OTHER_SESSION, Topology.OUTSIDE_AGENT);
        assertThat(all).allSatisfy(s -> assertThat(s.expectation(Topology.SAME_AGENT)).isPresent());
    }
}
