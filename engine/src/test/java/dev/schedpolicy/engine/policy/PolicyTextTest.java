package dev.schedpolicy.engine.policy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** trim() used to drop control characters, so 'idle\u0001' ran as idle; every parser now refuses them. */
class PolicyTextTest {
    @ParameterizedTest
    @ValueSource(strings = {"idle\u0001", "\u0001idle", "batch+nice\u0661\u0669", "idle\u00a0", "nice19\t"})
    void shouldRefuseControlAndNonAsciiCharactersInACompactPolicy(final String text) {
        assertThatThrownBy(() -> Policy.parse(text)).isInstanceOf(InvalidPolicyException.class)
                .hasMessageContaining("only printable ASCII is allowed").hasMessageContaining("U+");
    }

    @ParameterizedTest
    @ValueSource(strings = {"idle\u0001", "be:\u0665"})
    void shouldRefuseThemInIoPriorities(final String text) {
        assertThatThrownBy(() -> IoPriority.parse(text)).isInstanceOf(InvalidPolicyException.class)
                .hasMessageContaining("only printable ASCII");
    }

    @ParameterizedTest
    @ValueSource(strings = {"0\u0001", "\u0660-1"})
    void shouldRefuseThemInCpuLists(final String text) {
        assertThatThrownBy(() -> CpuList.parse(text)).isInstanceOf(InvalidPolicyException.class)
                .hasMessageContaining("only printable ASCII");
    }

    @ParameterizedTest
    @ValueSource(strings = {"warn\u0001", "fail\u0000"})
    void shouldRefuseThemInOnUnsupported(final String text) {
        assertThatThrownBy(() -> OnUnsupported.parse(text)).isInstanceOf(InvalidPolicyException.class)
                .hasMessageContaining("only printable ASCII");
    }

    @ParameterizedTest
    @ValueSource(strings = {"idle\u0001"})
    void shouldRefuseThemInTheStructuredForm(final String text) {
        assertThatThrownBy(() -> StructuredPolicy.of(text, null, null, null, null, null, null, null))
                .isInstanceOf(InvalidPolicyException.class).hasMessageContaining("U+0001");
        assertThatThrownBy(() -> StructuredPolicy.of(null, null, text, null, null, null, null, null))
                .isInstanceOf(InvalidPolicyException.class).hasMessageContaining("U+0001");
    }
}
