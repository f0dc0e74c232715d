package dev.schedpolicy.engine.agent;

import java.util.List;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GuardStageRuleTest {
    @Test
    void shouldGuardNoStageByDefault() {
        assertThat(GuardStageRule.check(" ")).isNull();
        assertThat(GuardStageRule.guardingStage(null, "tests", "tests", List.of("Test"))).isEmpty();
    }

    @Test
    void shouldFindThePatternInTheInnermostMatchingStage() {
        assertThat(GuardStageRule.guardingStage("(?i)test", ".*", "tests", List.of("Unit tests", "Test all"))).hasValue(0);
        assertThat(GuardStageRule.guardingStage("(?i)test", ".*", "tests", List.of("unit", "Test all"))).hasValue(1);
        assertThat(GuardStageRule.guardingStage("(?i)test", ".*", "tests", List.of("Build"))).isEmpty();
        assertThat(GuardStageRule.guardingStage("^Test$", ".*", "tests", List.of("Tests"))).isEmpty();
        assertThat(GuardStageRule.guardingStage("(?i)test", ".*", "tests", List.of())).isEmpty();
    }

    @Test
    void shouldGuardOnlyWhenTheJobMayGuardToo() {
        assertThat(GuardStageRule.guardingStage("(?i)test", "tests", "tests", List.of("Test"))).hasValue(0);
        assertThat(GuardStageRule.guardingStage("(?i)test", "tests", "compile", List.of("Test"))).isEmpty();
        assertThat(GuardStageRule.guardingStage("(?i)test", null, "tests", List.of("Test"))).isEmpty();
    }

    @Test
    void shouldRefuseAPatternThatDoesNotCompileSayingWhatIsAllowed() {
        assertThatThrownBy(() -> GuardStageRule.check("test("))
                .hasMessageStartingWith("the stages to guard must be a Java regular expression found in a stage's name,"
                        + " e.g. '(?i)test' (blank: no stage); 'test(' is not one: ");
        assertThat(GuardStageRule.guardingStage("test(", ".*", "tests", List.of("test("))).isEmpty();
    }
}
