package dev.schedpolicy.engine.policy;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SchedClassTest {
    @Test
    void shouldUseTheKernelPolicyNumbers() {
        assertThat(SchedClass.NORMAL.kernelValue()).isZero();
        assertThat(SchedClass.FIFO.kernelValue()).isEqualTo(1);
        assertThat(SchedClass.RR.kernelValue()).isEqualTo(2);
        assertThat(SchedClass.BATCH.kernelValue()).isEqualTo(3);
        assertThat(SchedClass.IDLE.kernelValue()).isEqualTo(5);
        for (SchedClass c : SchedClass.values()) {
            assertThat(SchedClass.fromKernel(c.kernelValue())).isSameAs(c);
        }
    }

    @Test
    void shouldNamePoliciesWeNeverSet() {
        assertThat(SchedClass.fromKernel(6)).isNull();
        assertThat(SchedClass.kernelName(6)).isEqualTo("deadline");
        assertThat(SchedClass.kernelName(7)).isEqualTo("ext");
        assertThat(SchedClass.kernelName(42)).isEqualTo("policy 42");
        assertThat(SchedClass.kernelName(3)).isEqualTo("batch");
    }

    @Test
    void shouldMarkOnlyFifoAndRrAsRealtime() {
        assertThat(SchedClass.values()).filteredOn(SchedClass::isRealtime).containsExactly(SchedClass.FIFO, SchedClass.RR);
        assertThat(SchedClass.allowedLabels()).isEqualTo("normal, batch, idle");
    }

    @Test
    void shouldParseOnUnsupportedAndSayWhatIsAllowed() {
        assertThat(OnUnsupported.parse(" WARN ")).isEqualTo(OnUnsupported.WARN);
        assertThat(OnUnsupported.parse("fail")).isEqualTo(OnUnsupported.FAIL);
        assertThatThrownBy(() -> OnUnsupported.parse("ignore")).isInstanceOf(InvalidPolicyException.class)
                .hasMessage("on-unsupported must be 'fail' or 'warn', not 'ignore'");
        assertThatThrownBy(() -> OnUnsupported.parse(null)).isInstanceOf(InvalidPolicyException.class)
                .hasMessage("on-unsupported must be 'fail' or 'warn', not 'null'");
    }
}
