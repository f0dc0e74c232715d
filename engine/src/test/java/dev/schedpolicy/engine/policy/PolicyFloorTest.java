package dev.schedpolicy.engine.policy;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PolicyFloorTest {
    private static PolicyFloor.Floored floor(final String floor, final String wanted) {
        Policy f = Policy.parse(floor);
        return PolicyFloor.apply(f, f.overriddenBy(Policy.parse(wanted)));
    }

    @Test
    void shouldKeepAnIdleDefaultWhenAnAuthorAsksForNormal() {
        PolicyFloor.Floored r = floor("idle", "normal");
        assertThat(r.policy().toCompact()).isEqualTo("idle");
        assertThat(r.kept()).singleElement().asString().contains("class idle is a floor").contains("class normal");
    }

    @Test
    void shouldKeepTheDefaultNiceWhenAnAuthorAsksForLess() {
        assertThat(floor("batch+nice10", "nice0").policy().toCompact()).isEqualTo("batch+nice10");
    }

    @Test
    void shouldLetAnAuthorLowerPriorityBelowTheDefault() {
        PolicyFloor.Floored r = floor("batch+nice10+io-be5+quota100", "idle+nice19+io-idle+quota50");
        assertThat(r.policy().toCompact()).isEqualTo("idle+nice19+io-idle+quota50");
        assertThat(r.kept()).isEmpty();
    }

    @Test
    void shouldKeepTheDefaultIoPriorityAgainstAHigherOne() {
        assertThat(floor("io-idle", "io-be7").policy().toCompact()).isEqualTo("io-idle");
        assertThat(floor("io-be6", "io-be4").policy().toCompact()).isEqualTo("io-be6");
    }

    @Test
    void shouldKeepTheDefaultQuotaAgainstALargerOne() {
        assertThat(floor("quota50", "quota150").policy().toCompact()).isEqualTo("quota50");
    }

    @Test
    void shouldKeepAnIdleGroupAgainstAWeightOrNoCpuIdle() {
        assertThat(floor("cpu-idle", "weight100").policy().toCompact()).isEqualTo("cpu-idle");
        assertThat(floor("cpu-idle", "no-cpu-idle").policy().toCompact()).isEqualTo("cpu-idle");
        assertThat(floor("weight50", "cpu-idle").policy().toCompact()).isEqualTo("cpu-idle");
        assertThat(floor("weight50", "weight500").policy().toCompact()).isEqualTo("weight50");
    }

    @Test
    void shouldKeepTheDefaultCpusUnlessTheAuthorNarrowsThem() {
        assertThat(floor("cpus=0-1", "cpus=0-3").policy().toCompact()).isEqualTo("cpus=0-1");
        assertThat(floor("cpus=0-1", "cpus=1").policy().toCompact()).isEqualTo("cpus=1");
    }

    @Test
    void shouldLeaveOnUnsupportedAndUnsetFieldsToTheAuthor() {
        assertThat(floor("nice10", "batch+warn").policy().toCompact()).isEqualTo("batch+nice10+warn");
        assertThat(floor("default", "normal+nice0").policy().toCompact()).isEqualTo("normal+nice0");
    }
}
