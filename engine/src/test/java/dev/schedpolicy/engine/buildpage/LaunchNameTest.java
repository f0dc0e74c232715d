package dev.schedpolicy.engine.buildpage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import dev.schedpolicy.engine.buildpage.LaunchName.Step;
import org.junit.jupiter.api.Test;

class LaunchNameTest {
    @Test
    void shouldNameAPipelineStepByItsBuildStageAndStep() {
        LaunchName n = new LaunchName("compile #212", "Build", "", Step.of("sh", "make -j8"), "idle");
        assertThat(n.where()).isEqualTo("stage 'Build' › sh 'make -j8'");
        assertThat(n.text()).as("other builds see the step's function, never its script")
                .isEqualTo("compile #212 › stage 'Build' › sh (idle)");
    }

    /** A freestyle build step is named by its whole display name, quotes and all: none of it is a script. */
    @Test
    void shouldNameAStepToOtherBuildsByItsWholeFunctionName() {
        assertThat(new LaunchName("web #7", "", "", Step.of("Run 'npm' scripts", null), "idle").text())
                .isEqualTo("web #7 › Run 'npm' scripts (idle)");
        assertThat(new LaunchName("web #7", "", "", Step.of("'Quoted' tool", null), "idle").text())
                .isEqualTo("web #7 › 'Quoted' tool (idle)");
    }

    /** A build's figures keep the step as its page shows it: read back, it shows so there and names nothing else. */
    @Test
    void shouldShowAStepReadBackFromABuildsFiguresAsStored() {
        LaunchName stored = new LaunchName("", "Build 3", "", Step.shown("sh 'make target-4999'"), "normal");
        assertThat(stored.where()).isEqualTo("stage 'Build 3' › sh 'make target-4999'");
        assertThat(stored.step().function()).isEmpty();
        assertThat(new LaunchName("", "", "", Step.shown(null), "idle").where()).isEmpty();
    }

    @Test
    void shouldNameAnUnloweredLaunchWithoutPolicyAsSuch() {
        assertThat(new LaunchName("docs #88", "", "", Step.NONE, "normal").text()).isEqualTo("docs #88 (no policy)");
        assertThat(new LaunchName("docs #88", null, null, null, null).text()).isEqualTo("docs #88 (no policy)");
        assertThat(new LaunchName("docs #88", "", "", Step.NONE, "").where()).isEmpty();
    }

    @Test
    void shouldNameAParallelBranchOnlyWhenItIsNotTheStageItself() {
        Step sh = Step.of("sh", null);
        assertThat(new LaunchName("t #3", "Test", "unit", sh, null).where()).isEqualTo("stage 'Test' › branch 'unit' › sh");
        // Declarative's parallel stages: the branch is named after its stage
        assertThat(new LaunchName("t #3", "unit", "unit", sh, null).where()).isEqualTo("stage 'unit' › sh");
        assertThat(new LaunchName("t #3", "", "unit", sh, null).where()).isEqualTo("branch 'unit' › sh");
    }

    @Test
    void shouldShowOnlyTheFirstLineOfAScriptCutToAFewWords() {
        assertThat(Step.of("sh", "\n  set -e\nmake all\n").text()).isEqualTo("sh 'set -e'");
        String longScript = Step.of("sh", "for i in 1 2 3 4; do timeout 90 sh -c \"while :; do :; done\" & done").text();
        assertThat(longScript).isEqualTo("sh 'for i in 1 2 3 4;…'").hasSizeLessThanOrEqualTo(LaunchName.DETAIL_MAX + 5);
        assertThat(Step.of("sh", "sysbench cpu --threads=1 --events=6000 run").text()).isEqualTo("sh 'sysbench cpu…'");
        // a word longer than half the room is cut where the room ends
        assertThat(Step.of("sh", "./gradlew:integrationTestsOnStaging").text()).isEqualTo("sh './gradlew:integrati…'");
        assertThat(Step.of("sh", "  ")).isEqualTo(new Step("sh", "sh"));
        assertThat(Step.of("", "Execute shell")).as("known by its label only: no function to name")
                .isEqualTo(new Step("", "'Execute shell'"));
    }

    @Test
    void shouldCutLongStageNamesAndKeepTheEndOfLongJobNames() {
        LaunchName n = new LaunchName("platform » backend » integration-tests-nightly #1042",
                "Integration tests against the staging database", "", Step.of("sh", null), "idle");
        assertThat(n.build()).startsWith("…").endsWith("integration-tests-nightly #1042").hasSize(LaunchName.BUILD_MAX);
        assertThat(n.stage()).isEqualTo("Integration tests…");
        assertThat(n.text()).isEqualTo("…integration-tests-nightly #1042 › stage 'Integration tests…' › sh (idle)");
    }

    @Test
    void shouldRequireTheBuild() {
        assertThatNullPointerException().isThrownBy(() -> new LaunchName(null, "", "", Step.NONE, "idle")).withMessage("build");
        assertThat(LaunchName.outsideBuild("idle").text()).isEqualTo("a launch outside a build (idle)");
    }
}
