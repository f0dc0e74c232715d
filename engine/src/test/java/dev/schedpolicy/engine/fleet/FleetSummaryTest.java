package dev.schedpolicy.engine.fleet;

import static dev.schedpolicy.engine.fleet.FleetFixtures.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The fleet view's summary, filters, order and pages. */
class FleetSummaryTest {
    private static final long NOW = 1_000_000_000L;

    /** 1,000 agents: 700 fine, 200 in their own cgroup, 60 run as jenkins without cgroups, 30 never probed, 10 failed. */
    private static List<FleetRow> fleet() {
        List<FleetRow> rows = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            String name = String.format("agent-%04d", i);
            ProbeResult p = i < 700 ? ProbeResult.of(FleetFixtures.underIdleParent(), NOW - i * 1000L, 100)
                    : i < 900 ? ProbeResult.of(FleetFixtures.ownCgroup(), NOW, 100)
                    : i < 960 ? ProbeResult.of(FleetFixtures.noCgroups("jenkins"), NOW, 100)
                    : i < 990 ? null : ProbeResult.failed("no answer within 30 s", NOW, 30_000);
            rows.add(row(name, List.of(i % 2 == 0 ? "linux" : "docker"), i % 100 != 0, p));
        }
        return rows;
    }

    @Test
    void shouldCountTheFleetAndGroupItsFixesWithTheirAgentsMostCommonFirst() {
        FleetSummary s = FleetSummary.of(fleet());
        assertThat(List.of(s.nodes(), s.protect(), s.cannot(), s.unknown(), s.offline())).containsExactly(1000, 700, 260, 40, 10);
        assertThat(s.fixes()).extracting(FleetSummary.FixGroup::title)
                .containsExactly("Set the cgroup parent to the idle parent", "Hand the idle parent to the agent's user");
        assertThat(s.fixes().get(0).nodes()).hasSize(200).startsWith("agent-0700");
        assertThat(s.fixes().get(0).command()).isNull();
        assertThat(s.fixes().get(1).command()).isEqualTo("sudo schedpolicy setup --user jenkins");
        assertThat(s.fixes().get(1).nodesWords(3)).isEqualTo("agent-0900, agent-0901, agent-0902 and 57 more");
        assertThat(s.fixes().get(1).example()).startsWith("agent-0900: " + FleetFixtures.PARENT + " is not usable");
    }

    @Test
    void shouldGiveAgentsWhoseSetupCommandsDifferTheirOwnFix() {
        List<FleetRow> rows = List.of(row("a", List.of(), true, ProbeResult.of(FleetFixtures.noCgroups("jenkins"), NOW, 1)),
                row("b", List.of(), true, ProbeResult.of(FleetFixtures.noCgroups("ci"), NOW, 1)));
        assertThat(FleetSummary.of(rows).fixes()).extracting(FleetSummary.FixGroup::command)
                .containsExactlyInAnyOrder("sudo schedpolicy setup --user jenkins", "sudo schedpolicy setup --user ci");
    }

    @Test
    void shouldShowFiftyRowsAPageInTheOrderAskedAndFilterByStateAndFix() {
        List<FleetRow> rows = fleet();
        FleetPage first = FleetQuery.parse(null, null, null, null, null, FleetQuery.PAGE_SIZE).apply(rows);
        assertThat(first.rows()).hasSize(50);
        assertThat(first.pages()).isEqualTo(20);
        assertThat(first.rows().get(0).node()).isEqualTo("agent-0700"); // those that cannot protect first
        assertThat(first.rangeWords()).isEqualTo("rows 1-50 of 1000");
        FleetPage last = FleetQuery.parse("unknown", "name", null, "99", "25", FleetQuery.PAGE_SIZE).apply(rows);
        assertThat(last.matching()).isEqualTo(40);
        assertThat(last.page()).isEqualTo(2);
        assertThat(last.rows()).extracting(FleetRow::node).startsWith("agent-0985").hasSize(15);
        String fix = FleetSummary.of(rows).fixes().get(1).id();
        assertThat(FleetQuery.parse("cannot", null, fix, null, null, 0).apply(rows).matching()).isEqualTo(60);
        assertThat(FleetQuery.parse("offline", "reach", null, null, null, 0).apply(rows).rows()).extracting(FleetRow::node)
                .containsExactly("agent-0900", "agent-0700", "agent-0800", "agent-0000", "agent-0100", "agent-0200", "agent-0300",
                        "agent-0400", "agent-0500", "agent-0600");
        assertThat(FleetQuery.parse(null, "probed", null, null, "1", 0).apply(rows).rows().get(0).node()).isEqualTo("agent-0960");
        assertThat(FleetQuery.parse(null, "labels", null, null, "1", 0).apply(rows).rows().get(0).node()).isEqualTo("agent-0001");
    }

    @Test
    void shouldRefuseAStateSortOrNumberItDoesNotKnowSayingWhatIsAllowed() {
        assertThatThrownBy(() -> FleetQuery.parse("broken", null, null, null, null, 50))
                .hasMessage("state 'broken' is not one of all, cannot, protects, unknown, offline");
        assertThatThrownBy(() -> FleetQuery.parse(null, "size", null, null, null, 50))
                .hasMessage("sort 'size' is not one of attention, name, labels, reach, probed");
        assertThatThrownBy(() -> FleetQuery.parse(null, null, null, "x", null, 50)).hasMessage("page 'x' is not a whole number");
        assertThatThrownBy(() -> FleetQuery.parse(null, null, null, null, "5000", 50))
                .hasMessage("page must be 1 or more and size 0 (all) to 1000");
    }
}
