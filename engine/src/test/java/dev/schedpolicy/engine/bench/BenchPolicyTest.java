package dev.schedpolicy.engine.bench;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BenchPolicyTest {
    @Test
    void shouldGuardTheVictimBesideAnUnloweredBackgroundForGuard() {
        BenchPolicy p = BenchPolicy.of("guard", 2);
        assertThat(p.isGuard()).isTrue();
        assertThat(p.isDefault()).as("nothing applied to the background").isTrue();
    }

    @Test
    void shouldGuardTheVictimBesideABackgroundUnderThePolicyAfterGuardPlus() {
        BenchPolicy p = BenchPolicy.of("guard+idle", 2);
        assertThat(p.isGuard()).isTrue();
        assertThat(p.compact()).isEqualTo("idle");
        assertThat(p.label()).isEqualTo("guard+idle");
        assertThat(BenchPolicy.of("guard+batch+nice19", 2).compact()).isEqualTo("batch+nice19");
        assertThat(p.pinnedTo(0).isGuard()).as("a pinned victim copy's row").isTrue();
    }

    @Test
    void shouldRefuseGuardPlusNothingOrAnotherGuardInWords() {
        assertThatThrownBy(() -> BenchPolicy.of("guard+default", 2)).hasMessage("'guard+default': after guard+ comes the"
                + " background's policy, e.g. guard+idle or guard+cpu-idle; for an unlowered background write guard");
        assertThatThrownBy(() -> BenchPolicy.of("guard+guard", 2)).hasMessageContaining("after guard+ comes");
    }
}
