package dev.schedpolicy.engine.buildpage;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Issue 23 item 13: the benchmark results of two nodes of one build never share a file or a URL. */
class BenchmarkFilesTest {
    @Test
    void shouldGiveNodesWhoseNamesDifferOnlyInPunctuationDifferentNames() {
        assertThat(BenchmarkFiles.nameFor("agent 1")).isNotEqualTo(BenchmarkFiles.nameFor("agent_1"));
        assertThat(BenchmarkFiles.nameFor("agent 1")).isEqualTo("schedpolicy-benchmark-agent_201");
        assertThat(BenchmarkFiles.nameFor("agent_1")).isEqualTo("schedpolicy-benchmark-agent_5f1");
        assertThat(BenchmarkFiles.nameFor("agent-1.lab")).isEqualTo("schedpolicy-benchmark-agent-1.lab");
        assertThat(BenchmarkFiles.nameFor("")).isEqualTo("schedpolicy-benchmark");
        assertThat(BenchmarkFiles.nameFor("ünï/x")).matches("schedpolicy-benchmark-[A-Za-z0-9._-]+");
    }

    @Test
    void shouldBeInjectiveOverNamesThatTheOldMappingMerged() {
        List<String> names = List.of("a b", "a_b", "a/b", "a:b", "a_20b", "a_5fb", "a", "A", "a~2", "é", "_c3_a9", "b ", "b_");
        Set<String> seen = new HashSet<>();
        for (String n : names) {
            assertThat(seen.add(BenchmarkFiles.nameFor(n))).as("name of '%s' is its own", n).isTrue();
        }
        assertThat(BenchmarkFiles.legacyNameFor("agent 1")).isEqualTo(BenchmarkFiles.legacyNameFor("agent_1"));
    }

    @Test
    void shouldNumberASecondResultOfTheSameNodeInOneBuild() {
        assertThat(BenchmarkFiles.nameFor("x", List.of())).isEqualTo("schedpolicy-benchmark-x");
        assertThat(BenchmarkFiles.nameFor("x", List.of("schedpolicy-benchmark-x"))).isEqualTo("schedpolicy-benchmark-x~2");
        assertThat(BenchmarkFiles.nameFor("x", List.of("schedpolicy-benchmark-x", "schedpolicy-benchmark-x~2")))
                .isEqualTo("schedpolicy-benchmark-x~3");
        assertThat(BenchmarkFiles.nameFor("x-2")).isNotEqualTo(BenchmarkFiles.nameFor("x", List.of("schedpolicy-benchmark-x")));
    }
}
