package dev.schedpolicy.engine.policy;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CpuListWithinTest {
    private final CpuList twoCpus = CpuList.parse("0-1");

    @Test
    void shouldNameTheMissingCpuAndTheMachinesCpus() {
        assertThatThrownBy(() -> CpuList.parse("99").requireWithin(twoCpus)).isInstanceOf(InvalidPolicyException.class)
                .hasMessage("CPU 99 does not exist; this machine has CPUs 0-1");
    }

    @Test
    void shouldNameEveryMissingCpuOfARange() {
        assertThatThrownBy(() -> CpuList.parse("1-5,7").requireWithin(CpuList.parse("0-3,8")))
                .hasMessage("CPUs 4-5,7 do not exist; this machine has CPUs 0-3,8");
    }

    @Test
    void shouldAcceptCpusTheMachineHas() {
        assertThatCode(() -> CpuList.parse("1").requireWithin(twoCpus)).doesNotThrowAnyException();
    }
}
