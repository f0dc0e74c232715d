package dev.schedpolicy.engine.buildpage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import org.junit.jupiter.api.Test;

class LaunchNameTest {
    @Test
    void shouldNameAPipelineStepByItsBuildStageAndStep() {
        LaunchName n = new LaunchName("compile #212", "Build", "", LaunchName.step("sh", "make -j8"), "idle");
        assertThat(n.where()).isEqualTo("stage 'Build' › sh 'make -j8'");
        assertThat(n.text()).as("other builds see the step's function, never its script")
                .isEqualTo("compile #212 › stage 'Build' › sh (idle)");
    }

    @Test
    void shouldNameAnUnloweredLaunchWithoutPolicyAsSuch() {
        assertThat(new LaunchName("docs #88", "", "", "", "normal").text()).isEqualTo("docs #88 (no policy)");
        assertThat(new LaunchName("docs #88", null, null, null, null).text()).isEqualTo("docs #88 (no policy)");
        assertThat(new LaunchName("docs #88", "", "", "", "").where()).isEmpty();
    }

    @Test
    void shouldNameAParallelBranchOnlyWhenItIsNotTheStageItself() {
        String sh = LaunchName.step("sh", null);
        assertThat(new LaunchName("t #3", "Test", "unit", sh, null).where()).isEqualTo("stage 'Test' › branch 'unit' › sh");
        // Declarative's parallel stages: the branch is named after its stage
        assertThat(new LaunchName("t #3", "unit", "unit", sh, null).where()).isEqualTo("stage 'unit' › sh");
        assertThat(new LaunchName("t #3", "", "unit", sh, null).where()).isEqualTo("branch 'unit' › sh");
    }

    @Test
    void shouldShowOnlyTheFirstLineOfAScriptCutToAFewWords() {
        String step = LaunchName.step("sh", "\n  set -e\nmake all\n");
        assertThat(step).isEqualTo("sh 'set -e'");
        String longScript = LaunchName.step("sh", "for i in 1 2 3 4; do timeout 90 sh -c \"while :; do :; done\" & done");
        assertThat(longScript).isEqualTo("sh 'for i in 1 2 3 4;…'").hasSizeLessThanOrEqualTo(LaunchName.DETAIL_MAX + 5);
        assertThat(LaunchName.step("sh", "sysbench cpu --threads=1 --events=6000 run")).isEqualTo("sh 'sysbench cpu…'");
        // a word longer than half the room is cut where the room ends
        assertThat(LaunchName.step("sh", "./gradlew:integrationTestsOnStaging")).isEqualTo("sh './gradlew:integrati…'");
        assertThat(LaunchName.step("sh", "  ")).isEqualTo("sh");
        assertThat(LaunchName.step("", "Execute shell")).isEqualTo("'Execute shell'");
    }

    @Test
    void shouldCutLongStageNamesAndKeepTheEndOfLongJobNames() {
        LaunchName n = new LaunchName("platform » backend » integration-tests-nightly #1042",
                "Integration tests against the staging database", "", "sh", "idle");
        assertThat(n.build()).startsWith("…").endsWith("integration-tests-nightly #1042").hasSize(LaunchName.BUILD_MAX);
        assertThat(n.stage()).isEqualTo("Integration tests…");
        assertThat(n.text()).isEqualTo("…integration-tests-nightly #1042 › stage 'Integration tests…' › sh (idle)");
    }

    @Test
    void shouldRequireTheBuild() {
        assertThatNullPointerException().isThrownBy(() -> new LaunchName(null, "", "", "", "idle")).withMessage("build");
        assertThat(LaunchName.outsideBuild("idle").text()).isEqualTo("a launch outside a build (idle)");
    }
}
