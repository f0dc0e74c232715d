package dev.schedpolicy.engine.policy;

import dev.schedpolicy.engine.policy.IoPriority.IoClass;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class IoPriorityTest {
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        "idle    | idle",
        "IDLE    | idle",
        "' idle '| idle",
        "be:7    | be:7",
        "be7     | be:7",
        "BE:0    | be:0",
        "rt:3    | rt:3",
        "rt0     | rt:0",
    })
    void shouldParseEveryForm(final String text, final String canonical) {
        assertThat(IoPriority.parse(text)).hasToString(canonical);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "be", "be:8", "be:-1", "be:10", "rt:8", "none", "best-effort", "7", "idle:3"})
    void shouldRefuseOtherTextsSayingWhatIsAllowed(final String text) {
        assertThatThrownBy(() -> IoPriority.parse(text)).isInstanceOf(InvalidPolicyException.class)
                .hasMessage("I/O priority must be 'idle' or 'be:N' with N 4..7 (7 lowest; be:0..3 and rt:N raise priority and"
                        + " need raising allowed), not '" + text + "'");
    }

    @Test
    void shouldRefuseNull() {
        assertThatThrownBy(() -> IoPriority.parse(null)).isInstanceOf(InvalidPolicyException.class)
                .hasMessageStartingWith("I/O priority must be 'idle' or 'be:N'");
    }

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource(delimiter = '|', value = {
        // IOPRIO_PRIO_VALUE(class, data) = (class << 13) | data; classes RT 1, BE 2, IDLE 3
        "idle  | 24576",
        "be:0  | 16384",
        "be:4  | 16388",
        "be:7  | 16391",
        "rt:0  | 8192",
        "rt:7  | 8199",
    })
    void shouldEncodeTheKernelValueAndDecodeItBack(final String text, final int kernel) {
        IoPriority io = IoPriority.parse(text);

        assertThat(io.kernelValue()).isEqualTo(kernel);
        assertThat(IoPriority.fromKernel(kernel)).isEqualTo(io);
    }

    @Test
    void shouldDecodeAnUnsetPriorityAsNone() {
        // ioprio_get of a task that never called ioprio_set: class NONE, I/O follows the CPU nice
        IoPriority none = IoPriority.fromKernel(0);

        assertThat(none.ioClass()).isEqualTo(IoClass.NONE);
        assertThat(none).hasToString("none");
        assertThat(none.raises()).isFalse();
    }

    @Test
    void shouldIgnoreTheLevelOfTheIdleClass() {
        assertThat(IoPriority.fromKernel(3 << 13 | 7)).isEqualTo(IoPriority.idle());
    }

    @Test
    void shouldRefuseAnUnknownKernelClass() {
        assertThatThrownBy(() -> IoPriority.fromKernel(5 << 13)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Unknown ioprio class 5 in value 40960");
    }

    @Test
    void shouldRefuseLevelsOutsideZeroToSeven() {
        assertThatThrownBy(() -> IoPriority.bestEffort(8)).isInstanceOf(InvalidPolicyException.class)
                .hasMessage("I/O priority level must be 0..7, not 8");
        assertThatThrownBy(() -> new IoPriority(IoClass.RT, -1)).isInstanceOf(InvalidPolicyException.class)
                .hasMessage("I/O priority level must be 0..7, not -1");
    }

    @Test
    void shouldRefuseAMissingClass() {
        assertThatThrownBy(() -> new IoPriority(null, 0)).isInstanceOf(InvalidPolicyException.class)
                .hasMessage("I/O class must be given: idle, be:0..7 or rt:0..7");
    }

    @Test
    void shouldRaiseOnlyForRealtimeAndBestEffortBelowFour() {
        assertThat(IoPriority.bestEffort(3).raises()).isTrue();
        assertThat(IoPriority.bestEffort(0).raises()).isTrue();
        assertThat(new IoPriority(IoClass.RT, 7).raises()).isTrue();
        assertThat(IoPriority.bestEffort(IoPriority.DEFAULT_BE_LEVEL).raises()).isFalse();
        assertThat(IoPriority.bestEffort(7).raises()).isFalse();
        assertThat(IoPriority.idle().raises()).isFalse();
    }
}
