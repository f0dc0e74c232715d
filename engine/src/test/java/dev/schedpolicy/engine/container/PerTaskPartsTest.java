package dev.schedpolicy.engine.container;

import dev.schedpolicy.engine.policy.Policy;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PerTaskPartsTest {
    @Test
    void shouldNameTheCgroupEquivalentOfEachPerTaskPart() {
        assertThat(PerTaskParts.of(Policy.parse("idle+nice10+io-idle+cpu-idle")))
                .satisfiesExactly(
                        c -> assertThat(c).startsWith("class idle").contains("use cpuIdle for container steps"),
                        n -> assertThat(n).startsWith("nice 10").contains("cpuWeight: 11"),
                        io -> assertThat(io).startsWith("io idle").contains("--blkio-weight"));
    }

    @Test
    void shouldFindNothingPerTaskInACgroupOnlyPolicy() {
        assertThat(PerTaskParts.of(Policy.parse("cpu-idle+quota50+cpus=0"))).isEmpty();
        assertThat(PerTaskParts.of(Policy.parse("normal+weight50"))).isEmpty();
    }

    @Test
    void shouldMapNiceToTheWeightWithTheSameShareAgainstNiceZero() {
        assertThat(PerTaskParts.weightForNice(0)).isEqualTo(100);
        assertThat(PerTaskParts.weightForNice(5)).isEqualTo(33);
        assertThat(PerTaskParts.weightForNice(19)).isEqualTo(1);
    }
}
