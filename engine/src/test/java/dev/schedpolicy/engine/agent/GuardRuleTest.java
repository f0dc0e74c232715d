package dev.schedpolicy.engine.agent;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GuardRuleTest {
    @Test
    void shouldLetNobodyGuardByDefault() {
        assertThat(GuardRule.check("  ")).isNull();
        assertThat(GuardRule.refusal(null, "tests")).hasValue("withSchedGuard: not guarded, job 'tests' is not among the"
                + " jobs an administrator lets guard (Manage Jenkins » System » Sched Policy); the body runs as it would"
                + " without the step");
    }

    @Test
    void shouldMatchTheWholeFullName() {
        assertThat(GuardRule.refusal("tests|team-a/.*", "tests")).isEmpty();
        assertThat(GuardRule.refusal("tests|team-a/.*", "team-a/unit")).isEmpty();
        assertThat(GuardRule.refusal("tests", "tests-and-more")).isPresent();
        assertThat(GuardRule.refusal("tests", "folder/tests")).isPresent();
    }

    @Test
    void shouldRefuseAPatternThatDoesNotCompileSayingWhatIsAllowed() {
        assertThatThrownBy(() -> GuardRule.check("tests("))
                .hasMessageStartingWith("the jobs that may guard must be a Java regular expression matched against a job's"
                        + " full name, e.g. 'tests|team-a/.*' (blank: no job); 'tests(' is not one: ");
        assertThat(GuardRule.refusal("tests(", "tests(")).isPresent();
    }

    @Test
    void shouldNameTheWayTheBuildAskedAndWhatRunsInstead() {
        assertThat(GuardRule.refusal("tests", "compile", "Guard this build's steps", "the build runs as it would without it"))
                .hasValue("Guard this build's steps: not guarded, job 'compile' is not among the jobs an administrator lets"
                        + " guard (Manage Jenkins » System » Sched Policy); the build runs as it would without it");
    }
}
