package dev.schedpolicy.engine.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The per-topology expectation keys of a scenario file and the kernel facts a claim may not deny. */
class ExpectationParsingTest {
    private final ScenarioParser parser = new ScenarioParser(p -> { });

    private static String scenario(final String header) {
        return "name = t\n" + header + "[victim]\nworkload = cpu-victim\n[background]\nworkload = cpu-looper\n"
                + "[matrix]\npolicies = default, idle, cpu-idle\nloads = 1\ntopologies = same-agent, outside-agent\n";
    }

    @Test
    void shouldReadWordsAndClaimsPerTopology() {
        Scenario s = parser.parse("x.scenario", scenario("expect = general words\n"
                + "expect.same-agent = idle keeps\n  about 95%\nclaims.same-agent = default < 90, idle >= 85\n"
                + "expect.other-cgroup = only under the idle parent\n"
                + "claims.outside-agent = idle < 99, cpu-idle >= 95 with idle parent,\n  cpu-idle < 99 without idle parent\n"));

        assertThat(s.expectation(Topology.SAME_AGENT).orElseThrow().text()).isEqualTo("idle keeps about 95%");
        assertThat(s.expectation(Topology.SAME_AGENT).orElseThrow().claims()).extracting(Claim::toString)
                .containsExactly("default < 90", "idle >= 85");
        Expectation outside = s.expectation(Topology.OUTSIDE_AGENT).orElseThrow();
        assertThat(outside.text()).isEqualTo("only under the idle parent");
        assertThat(outside.claimsFor(true)).extracting(Claim::toString).containsExactly("idle < 99",
                "cpu-idle >= 95 with idle parent");
        assertThat(outside.claimsFor(false)).extracting(Claim::toString).containsExactly("idle < 99",
                "cpu-idle < 99 without idle parent");
        assertThat(s.expectation(Topology.OTHER_SESSION)).as("no words for other-session, and the general ones"
                + " belong to same-agent").isEmpty();
    }

    @Test
    void shouldShowTheGeneralWordsOnlyUnderSameAgent() {
        Scenario s = parser.parse("x.scenario", scenario("expect = idle keeps 95% (seed 000)\n"));

        assertThat(s.expectation(Topology.SAME_AGENT).orElseThrow().text()).isEqualTo("idle keeps 95% (seed 000)");
        assertThat(s.expectation(Topology.OUTSIDE_AGENT)).isEmpty();
    }

    @Test
    void shouldRefuseAPerTaskPolicyClaimedToProtectInAnotherTaskGroup() {
        assertThatThrownBy(() -> parser.parse("x.scenario", scenario("expect.outside-agent = w\n"
                + "claims.outside-agent = default < 99, idle >= 90\n")))
                .hasMessageStartingWith("x.scenario:3:38: ")
                .hasMessageContaining("claim 'idle >= 90' cannot hold in outside-agent: nice, batch and idle act only"
                        + " within one task group");
    }

    @Test
    void shouldRefuseCpuIdleClaimedToProtectOutsideTheAgentWithoutTheIdleParent() {
        assertThatThrownBy(() -> parser.parse("x.scenario", scenario("expect.outside-agent = w\n"
                + "claims.outside-agent = cpu-idle >= 95\n")))
                .hasMessageContaining("write 'cpu-idle >= ... with idle parent'");
        assertThat(parser.parse("x.scenario", scenario("expect.outside-agent = w\n"
                + "claims.outside-agent = quota50 >= 95\n")).expectation(Topology.OUTSIDE_AGENT)).as("a quota caps its"
                + " group wherever it sits").isPresent();
    }

    @Test
    void shouldRefuseClaimsWithoutWordsBadClaimsAndUnknownTopologies() {
        assertThatThrownBy(() -> parser.parse("x.scenario", scenario("claims.same-agent = idle >= 90\n")))
                .hasMessageContaining("claims for same-agent need words too: add 'expect.same-agent = ...'");
        assertThatThrownBy(() -> parser.parse("x.scenario", scenario("expect.same-agent = w\n"
                + "claims.same-agent = idle about 90\n")))
                .hasMessageContaining("claim 'idle about 90' must look like 'idle >= 90'");
        assertThatThrownBy(() -> parser.parse("x.scenario", scenario("expect.far = w\n")))
                .hasMessageStartingWith("x.scenario:2:1: ").hasMessageContaining("'expect.far': unknown topology 'far'");
        assertThatThrownBy(() -> parser.parse("x.scenario", scenario("expect.same-agent =\n")))
                .hasMessageContaining("'expect.same-agent' is empty");
    }

    @Test
    void shouldExplainThatTheMachineTopologyIsGone() {
        assertThatThrownBy(() -> Topology.parse("machine"))
                .hasMessage("topology 'machine' is no longer offered (it meant other-session or outside-agent depending"
                        + " on the machine); name one of same-agent, outside-agent, other-session");
        assertThat(Topology.parse("same-group")).isEqualTo(Topology.SAME_AGENT);
        assertThat(Topology.parse("other-cgroup")).isEqualTo(Topology.OUTSIDE_AGENT);
    }
}
