package dev.schedpolicy.jenkins;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The built-in node has one name on every page and console line, whatever a record holds for it. */
class NodeNameTest {
    @Test
    void shouldNameTheBuiltInNodeOneWayForTheEmptyNameAndForRecordsMadeBeforeNodesWereKept() {
        assertThat(FleetProbes.nameOf("")).isEqualTo(FleetProbes.BUILT_IN).isEqualTo("built-in");
        assertThat(FleetProbes.nameOf(null)).as("a benchmark stored before its node was recorded").isEqualTo("built-in");
        assertThat(FleetProbes.nameOf("linux-1")).isEqualTo("linux-1");
    }
}
