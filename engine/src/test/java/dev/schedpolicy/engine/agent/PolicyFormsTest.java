package dev.schedpolicy.engine.agent;

import dev.schedpolicy.engine.policy.InvalidPolicyException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PolicyFormsTest {
    @Test
    void shouldLetNamedFieldsOverrideThePositionalPolicy() {
        assertThat(PolicyForms.compact("batch+nice10", 19, "idle", null, null, null, "", "warn"))
                .isEqualTo("batch+nice19+io-idle+warn");
    }

    @Test
    void shouldTreatBlankFormFieldsAsUnset() {
        assertThat(PolicyForms.compact("idle", null, " ", null, null, null, "", "")).isEqualTo("idle");
        assertThat(PolicyForms.compact("", null, null, null, null, null, null, null)).isEqualTo("default");
    }

    @Test
    void shouldBuildCgroupFieldsIntoTheCompactForm() {
        assertThat(PolicyForms.compact(null, null, null, 50, 20, null, "0-1", null))
                .isEqualTo("quota50+weight20+cpus=0-1");
        assertThat(PolicyForms.compact("batch", null, null, null, null, true, null, null)).isEqualTo("batch+cpu-idle");
    }

    @Test
    void shouldRejectNiceAboveNineteenSayingWhatIsAllowed() {
        assertThatThrownBy(() -> PolicyForms.compact("idle", 20, null, null, null, null, null, null))
                .isInstanceOf(InvalidPolicyException.class).hasMessageContaining("0..19");
    }

    @Test
    void shouldRejectUnknownOnUnsupported() {
        assertThatThrownBy(() -> PolicyForms.fromFields(null, null, null, null, null, null, null, "maybe"))
                .isInstanceOf(InvalidPolicyException.class).hasMessageContaining("'fail' or 'warn'");
    }

    @Test
    void shouldRejectAnEmptyPolicyForTheStepSayingWhatToWrite() {
        assertThatThrownBy(() -> PolicyForms.canonical("  "))
                .isInstanceOf(InvalidPolicyException.class).hasMessageContaining("'idle'");
    }

    @Test
    void shouldMergeLayersInnerWinningPerField() {
        assertThat(PolicyForms.merge("batch+nice10+warn", "", "nice19", null, "io-idle").toCompact())
                .isEqualTo("batch+nice19+io-idle+warn");
        assertThat(PolicyForms.merge("idle", "batch").toCompact()).isEqualTo("batch");
        assertThat(PolicyForms.merge().isDefault()).isTrue();
    }
}
