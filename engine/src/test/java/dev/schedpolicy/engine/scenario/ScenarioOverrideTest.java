package dev.schedpolicy.engine.scenario;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A scenario run with the user's own workloads is titled after what ran, not after the workloads it replaced. */
class ScenarioOverrideTest {
    private final Scenario seed = new ScenarioCatalog(p -> { }).load("seed-cpu-looper");

    @Test
    void shouldTitleARunWithBothWorkloadsReplacedAfterTheCommands() {
        Scenario s = seed.withVictim(WorkloadSpec.command("./mvnw -q test", 1))
                .withBackground(WorkloadSpec.command("make -j4", 1));
        assertThat(s.title()).isEqualTo("victim './mvnw -q test' vs background 'make -j4' (workloads given on the command line)")
                .doesNotContain(seed.title());
        assertThat(s.description()).startsWith("The seed-cpu-looper scenario's matrix run with workloads given on the command line")
                .endsWith("the scenario itself measures: " + seed.title());
        assertThat(s.name()).isEqualTo("seed-cpu-looper");
    }

    @Test
    void shouldNameTheScenariosOwnBackgroundWhenOnlyTheVictimIsReplaced() {
        Scenario s = seed.withVictim(WorkloadSpec.command("sleep 1", 1));
        assertThat(s.title()).isEqualTo("victim 'sleep 1' vs background " + seed.background().describe()
                + " (workloads given on the command line)");
    }
}
