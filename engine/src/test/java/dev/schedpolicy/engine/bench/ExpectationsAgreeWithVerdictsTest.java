package dev.schedpolicy.engine.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedpolicy.engine.policy.Policy;
import dev.schedpolicy.engine.report.BenchReport;
import dev.schedpolicy.engine.report.HtmlReport;
import dev.schedpolicy.engine.report.TextTable;
import dev.schedpolicy.engine.scenario.Claim;
import dev.schedpolicy.engine.scenario.Expectation;
import dev.schedpolicy.engine.scenario.Scenario;
import dev.schedpolicy.engine.scenario.ScenarioCatalog;
import dev.schedpolicy.engine.scenario.Topology;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 18 item 2: for every built-in scenario, the expectation printed under a topology's verdict is that
 * topology's own and never contradicts the verdict above it. A run that matches the claims gets a verdict that
 * agrees with them and no "differs" line; a run that breaks them gets one "differs" line per broken claim, so the
 * report never shows an expectation that silently says the opposite of what was measured.
 */
class ExpectationsAgreeWithVerdictsTest {
    private static final ScenarioCatalog CATALOG = new ScenarioCatalog(Benchmark::validatePolicy);
    private static final CgroupParentChoice NO_IDLE_PARENT = new CgroupParentChoice(Optional.empty(), false,
            "/sys/fs/cgroup/cpu/schedpolicy.idle", "not set up");
    private static final CgroupParentChoice IDLE_PARENT = new CgroupParentChoice(
            Optional.of(Path.of("/sys/fs/cgroup/cpu/schedpolicy.idle")), true, "/sys/fs/cgroup/cpu/schedpolicy.idle",
            "usable");
    private static final List<Double> LOADS = List.of(1.0, 2.0);

    static Stream<String> builtIn() {
        return ScenarioCatalog.BUILT_IN.stream();
    }

    private static boolean hasVerdict(final Scenario s) {
        return !s.victim().isNone() && !s.background().isNone()
                && s.policyTarget() == Scenario.PolicyTarget.BACKGROUND;
    }

    private static List<Topology> topologies(final Scenario s) {
        Set<Topology> all = new LinkedHashSet<>(s.full().topologies());
        all.addAll(s.quick().topologies());
        return all.stream().sorted().toList();
    }

    private static List<String> policies(final Scenario s) {
        Set<String> all = new LinkedHashSet<>(s.full().policies());
        all.addAll(s.quick().policies());
        s.expectations().values().forEach(e -> e.claims().forEach(c -> all.add(c.policy())));
        return List.copyOf(all);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("builtIn")
    void shouldSayWhatToExpectInEveryTopologyItMeasures(final String name) {
        Scenario s = CATALOG.load(name);
        if (!hasVerdict(s)) {
            return; // no verdict is printed, so nothing can contradict one
        }
        for (Topology t : topologies(s)) {
            assertThat(s.expectation(t)).as("%s: an expectation for %s", name, t.id()).isPresent();
            assertThat(s.expectation(t).get().text()).as("%s %s", name, t.id()).isNotBlank();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("builtIn")
    void shouldQuoteReferencesAndPerTaskPromisesOnlyWhereTheyWereMeasured(final String name) {
        Scenario s = CATALOG.load(name);
        for (Map.Entry<Topology, Expectation> e : s.expectations().entrySet()) {
            if (e.getKey().sharesTaskGroup()) {
                continue;
            }
            // the seed experiments ran victim and background in one session: their figures belong to same-agent
            assertThat(e.getValue().text()).as("%s %s", name, e.getKey().id()).doesNotContainIgnoringCase("seed 0");
            for (Claim c : e.getValue().claims()) {
                boolean perTask = !List.of("default", "none", "split").contains(c.policy())
                        && !Policy.parse(c.policy()).needsCgroup();
                assertThat(perTask && c.atLeast()).as("%s %s: %s, a per-task policy cannot reach another task group",
                        name, e.getKey().id(), c).isFalse();
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("builtIn")
    void shouldPrintAVerdictThatAgreesWithTheExpectationWhenTheRunMatchesIt(final String name) {
        Scenario s = CATALOG.load(name);
        if (!hasVerdict(s)) {
            return;
        }
        for (CgroupParentChoice parent : List.of(NO_IDLE_PARENT, IDLE_PARENT)) {
            List<BenchReport.Verdict> verdicts = verdicts(s, parent, ExpectationsAgreeWithVerdictsTest::meeting);
            String text = TextTable.verdicts(report(s, verdicts));
            for (BenchReport.Verdict v : verdicts) {
                Topology t = Topology.parse(v.topology());
                Expectation e = s.expectation(t).orElseThrow();
                assertThat(v.differs()).as("%s %s", name, t.id()).isEmpty();
                assertThat(block(text, v)).as("%s %s", name, t.id()).contains("expected here: " + e.text())
                        .doesNotContain("this run differs");
                for (Claim c : e.claimsFor(parent.idleParent())) {
                    // a claim at or above the verdict's target is a promise to protect; one below it, to fail
                    if (c.atLeast() && c.keptPct() >= BenchReport.PROTECT_KEPT_PCT) {
                        assertThat(v.protect()).as("%s %s %s", name, t.id(), c).anyMatch(p -> p.startsWith(c.policy()));
                    }
                    if (!c.atLeast() && c.keptPct() <= BenchReport.PROTECT_KEPT_PCT) {
                        assertThat(v.fail()).as("%s %s %s", name, t.id(), c).anyMatch(f -> f.policy().equals(c.policy()));
                    }
                }
                for (Topology other : topologies(s)) {
                    if (other != t && !s.expectation(other).get().text().equals(e.text())) {
                        assertThat(block(text, v)).as("%s: %s's expectation under %s", name, other.id(), t.id())
                                .doesNotContain(s.expectation(other).get().text());
                    }
                }
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("builtIn")
    void shouldFlagEveryClaimARunBreaks(final String name) {
        Scenario s = CATALOG.load(name);
        if (!hasVerdict(s)) {
            return;
        }
        for (CgroupParentChoice parent : List.of(NO_IDLE_PARENT, IDLE_PARENT)) {
            List<BenchReport.Verdict> verdicts = verdicts(s, parent, ExpectationsAgreeWithVerdictsTest::breaking);
            BenchReport report = report(s, verdicts);
            String text = TextTable.verdicts(report);
            String html = HtmlReport.render(report);
            for (BenchReport.Verdict v : verdicts) {
                List<Claim> claims = s.expectation(Topology.parse(v.topology())).orElseThrow()
                        .claimsFor(parent.idleParent());
                assertThat(v.differs()).as("%s %s", name, v.topology()).hasSize(claims.size());
                for (Claim c : claims) {
                    assertThat(block(text, v)).as("%s %s %s", name, v.topology(), c)
                            .contains("this run differs: expected " + c.describe());
                }
            }
            long differs = verdicts.stream().mapToLong(v -> v.differs().size()).sum();
            assertThat(html.split("this run differs", -1).length - 1L).as(name).isEqualTo(differs);
        }
    }

    /** Kept % that meets a claim: just at a lower bound, or well under an upper one; 100 without a claim. */
    private static double meeting(final Optional<Claim> c, final Double load) {
        return c.map(x -> x.atLeast() ? Math.max(x.keptPct(), 99.5) : x.keptPct() - 20).orElse(100.0);
    }

    /** Kept % that breaks a claim; 100 without a claim. */
    private static double breaking(final Optional<Claim> c, final Double load) {
        return c.map(x -> x.atLeast() ? x.keptPct() - 20 : Math.max(x.keptPct(), 99.5)).orElse(100.0);
    }

    private static List<BenchReport.Verdict> verdicts(final Scenario s, final CgroupParentChoice parent,
            final BiFunction<Optional<Claim>, Double, Double> kept) {
        List<Topology> topologies = topologies(s);
        List<String> policies = policies(s);
        List<BenchReport.Cell> cells = new ArrayList<>();
        for (Topology t : topologies) {
            List<Claim> claims = s.expectation(t).map(e -> e.claimsFor(parent.idleParent())).orElse(List.of());
            for (String p : policies) {
                Optional<Claim> claim = claims.stream().filter(c -> c.policy().equals(p)).findFirst();
                for (double load : LOADS) {
                    cells.add(TopologyVerdictsTest.cell(t.id(), p, load, List.of(kept.apply(claim, load)), 99));
                }
            }
        }
        return TopologyVerdicts.of(topologies, policies, cells, s, parent);
    }

    private static BenchReport report(final Scenario s, final List<BenchReport.Verdict> verdicts) {
        List<String> policies = verdicts.stream().flatMap(v -> Stream.concat(v.protect().stream().map(p -> p.split(" ")[0]),
                v.fail().stream().map(BenchReport.Shortfall::policy))).distinct().toList();
        return new BenchReport(BenchReport.SCHEMA_VERSION, "schedpolicy", false, null,
                new BenchReport.ScenarioInfo(s.name(), s.title(), s.description(), s.expect(), s.source(),
                        s.victim().describe(), s.background().describe(), s.policyTarget().name(), s.loadAxis().name(),
                        "keptPct"),
                new BenchReport.Machine("host", 2, "6.18", "amd64", "17", true, 0.5, "note"),
                new BenchReport.Run("2026-11-25T00:00:00Z", "2026-11-25T00:01:00Z", 60, "quick", 1, 1, 42, 1000, 4000.0,
                        1, 1),
                verdicts, policies, LOADS, verdicts.stream().map(BenchReport.Verdict::topology).toList(), null,
                List.of(), List.of());
    }

    /** The lines of one topology's verdict: from its numbered heading to the next one. */
    private static String block(final String text, final BenchReport.Verdict v) {
        int start = text.indexOf(". " + v.heading());
        assertThat(start).as("the verdict for %s is printed", v.topology()).isPositive();
        int end = text.indexOf("\n" + (Character.getNumericValue(text.charAt(start - 1)) + 1) + ". ", start);
        return text.substring(start, end < 0 ? text.length() : end);
    }
}
