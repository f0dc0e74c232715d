package dev.schedpolicy.engine.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.schedpolicy.engine.agent.GuardRules.Guarding;
import dev.schedpolicy.engine.agent.GuardRules.Rule;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class GuardRulesTest {
    private static final List<String> NO_STAGE = List.of();

    @Test
    void shouldGuardNothingByDefault() {
        GuardRules none = GuardRules.of(".*", null, null);
        assertThat(none.guarding("tests", List.of("Test"), false)).isEmpty();
        assertThat(none.onNode(" ", "").guarding("tests", List.of("Test"), false)).isEmpty();
        assertThat(none.anyOn()).isFalse();
        assertThat(GuardRules.checkWholeJobs("  ")).isNull();
    }

    @Test
    void shouldGuardTheWholeBuildOfAJobTheRuleNames() {
        GuardRules rules = GuardRules.of(".*", null, "tests|team-a/.*");
        assertThat(rules.guarding("team-a/unit", NO_STAGE, false)).hasValue(new Guarding(Rule.WHOLE_JOBS, OptionalInt.empty()));
        assertThat(rules.guarding("tests", List.of("Build"), false)).hasValue(new Guarding(Rule.WHOLE_JOBS, OptionalInt.empty()));
        // the whole name, as the grant matches it
        assertThat(rules.guarding("tests-and-more", NO_STAGE, false)).isEmpty();
        assertThat(rules.guarding("folder/tests", NO_STAGE, false)).isEmpty();
        assertThat(rules.anyOn()).isTrue();
        assertThat(rules.needsStages()).isFalse();
    }

    @Test
    void shouldGuardTheWholeBuildOnANodeTheLabelRuleMatches() {
        GuardRules rules = GuardRules.of("tests", null, null);
        assertThat(rules.guarding("tests", NO_STAGE, true)).hasValue(new Guarding(Rule.LABEL, OptionalInt.empty()));
        assertThat(rules.guarding("tests", NO_STAGE, false)).isEmpty();
    }

    @Test
    void shouldGuardOnlyJobsTheAdministratorGrantsWhateverRuleMatches() {
        GuardRules rules = GuardRules.of("tests", "(?i)test", "compile").onNode("(?i)unit", "compile");
        assertThat(rules.guarding("compile", List.of("Unit tests"), true)).isEmpty();
        assertThat(GuardRules.of(null, "(?i)test", ".*").guarding("tests", List.of("Test"), true)).isEmpty();
        assertThat(GuardRules.of("tests(", "(?i)test", ".*").guarding("tests(", List.of("Test"), true)).isEmpty();
    }

    @Test
    void shouldPreferTheInnermostMatchingStageToTheWholeBuild() {
        GuardRules rules = GuardRules.of(".*", "(?i)test", ".*");
        assertThat(rules.guarding("tests", List.of("unit", "Test all"), true)).hasValue(new Guarding(Rule.STAGES, OptionalInt.of(1)));
        assertThat(rules.guarding("tests", List.of("Build"), true)).hasValue(new Guarding(Rule.WHOLE_JOBS, OptionalInt.empty()));
        assertThat(rules.needsStages()).isTrue();
    }

    @Test
    void shouldLetANodesOwnRuleReplaceTheGlobalOneOnThatNode() {
        GuardRules global = GuardRules.of(".*", "(?i)test", "nightly");
        GuardRules node = global.onNode("^Smoke$", "tests");
        assertThat(node.guarding("tests", List.of("Test"), false)).hasValue(new Guarding(Rule.NODE_WHOLE_JOBS, OptionalInt.empty()));
        assertThat(node.guarding("nightly", List.of("Test"), false)).isEmpty();
        assertThat(node.guarding("nightly", List.of("Smoke"), false)).hasValue(new Guarding(Rule.NODE_STAGES, OptionalInt.of(0)));
        // blank on the node: the global rule
        assertThat(global.onNode(null, " ").guarding("nightly", List.of("Test"), false))
                .hasValue(new Guarding(Rule.STAGES, OptionalInt.of(0)));
        assertThat(global.onNode("^Smoke$", null).guarding("nightly", List.of("Build"), false))
                .hasValue(new Guarding(Rule.WHOLE_JOBS, OptionalInt.empty()));
        assertThat(GuardRules.of(".*", null, null).onNode("(?i)test", null).anyOn()).isTrue();
    }

    @Test
    void shouldGuardNothingByAPatternStoredBeforeItWasChecked() {
        GuardRules rules = GuardRules.of(".*", "test(", "tests(");
        assertThat(rules.guarding("tests(", List.of("test("), false)).isEmpty();
        assertThat(GuardRules.of(".*", null, null).onNode("test(", "tests(").guarding("tests(", List.of("test("), false)).isEmpty();
    }

    @Test
    void shouldRefuseAWholeJobPatternThatDoesNotCompileSayingWhatIsAllowed() {
        assertThatThrownBy(() -> GuardRules.checkWholeJobs("tests("))
                .hasMessageStartingWith("the jobs whose every step runs guarded must be a Java regular expression matched"
                        + " against a job's full name, e.g. 'tests|team-a/.*' (blank: no job); 'tests(' is not one: ");
    }
}
