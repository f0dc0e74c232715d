package dev.schedpolicy.engine.policy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.BitSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CpuListTest {
    @ParameterizedTest(name = "''{0}'' -> ''{1}''")
    @CsvSource(delimiter = '|', value = {
        "0              | 0",
        "1              | 1",
        "0-1            | 0-1",
        "1-1            | 1",
        "0,1            | 0-1",
        "0,1,2,5        | 0-2,5",
        "0,2-3          | 0,2-3",
        "' 3 , 1 '      | 1,3",
        "0-2,1-3        | 0-3",
        "5,0-1          | 0-1,5",
        "8191           | 8191",
    })
    void shouldPrintTheCanonicalKernelForm(final String text, final String canonical) {
        CpuList list = CpuList.parse(text);

        assertThat(list).hasToString(canonical);
        assertThat(CpuList.parse(canonical)).isEqualTo(list).hasSameHashCodeAs(list);
    }

    @Test
    void shouldCountAndFindTheHighestCpu() {
        CpuList list = CpuList.parse("0,2-3");

        assertThat(list.count()).isEqualTo(3);
        assertThat(list.highest()).isEqualTo(3);
        assertThat(list.toBitSet()).isEqualTo(bits(0, 2, 3));
    }

    @Test
    void shouldNotShareItsBitsWithCallers() {
        BitSet input = bits(1);
        CpuList list = CpuList.of(input);

        input.set(5);
        list.toBitSet().set(7);

        assertThat(list).hasToString("1");
    }

    @Test
    void shouldRefuseAnEmptyBitSet() {
        assertThatThrownBy(() -> CpuList.of(new BitSet())).isInstanceOf(InvalidPolicyException.class)
                .hasMessage("a CPU list needs at least one CPU");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "  "})
    void shouldRefuseAnEmptyListShowingExamples(final String text) {
        assertThatThrownBy(() -> CpuList.parse(text)).isInstanceOf(InvalidPolicyException.class)
                .hasMessage("CPU list is empty; write CPUs as in taskset -c, e.g. '0', '0-1' or '0,2-3'");
    }

    @Test
    void shouldRefuseNull() {
        assertThatThrownBy(() -> CpuList.parse(null)).isInstanceOf(InvalidPolicyException.class)
                .hasMessageStartingWith("CPU list is empty");
    }

    @ParameterizedTest
    @ValueSource(strings = {"a", "-1", "1-2-3", "0,,1", "0,", ",1", "0-", "-", "1.5", "0x1", "123456"})
    void shouldRefuseMalformedListsShowingExamples(final String text) {
        assertThatThrownBy(() -> CpuList.parse(text)).isInstanceOf(InvalidPolicyException.class)
                .hasMessage("CPU list '" + text + "' is not valid; write CPUs as in taskset -c, e.g. '0', '0-1' or '0,2-3'");
    }

    @Test
    void shouldRefuseADescendingRange() {
        assertThatThrownBy(() -> CpuList.parse("0,3-1")).isInstanceOf(InvalidPolicyException.class)
                .hasMessage("CPU range '3-1' in '0,3-1' is not valid; ranges go low-high with CPUs 0..8191");
    }

    @Test
    void shouldRefuseCpusBeyondTheMaximumWithoutAllocatingThem() {
        assertThatThrownBy(() -> CpuList.parse("0-99999")).isInstanceOf(InvalidPolicyException.class)
                .hasMessage("CPU range '0-99999' in '0-99999' is not valid; ranges go low-high with CPUs 0..8191");
        assertThatThrownBy(() -> CpuList.parse("8192")).isInstanceOf(InvalidPolicyException.class)
                .hasMessageContaining("CPUs 0..8191");
    }

    private static BitSet bits(final int... cpus) {
        BitSet b = new BitSet();
        for (int c : cpus) {
            b.set(c);
        }
        return b;
    }
}
