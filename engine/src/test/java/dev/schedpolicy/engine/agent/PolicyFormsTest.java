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

    @Test
    void shouldKeepTheAdministratorsDefaultAsAFloorForBlocks() {
        assertThat(PolicyForms.mergeOverDefault("idle", null, "normal", AgentLimits.DEFAULT).policy().toCompact()).isEqualTo("idle");
        assertThat(PolicyForms.mergeOverDefault("nice10", "batch+nice15", "nice0", AgentLimits.DEFAULT).policy().toCompact())
                .isEqualTo("batch+nice10");
    }

    @Test
    void shouldLetBlocksAboveTheDefaultOnlyWhenTheAdministratorAllowsIt() {
        AgentLimits above = new AgentLimits(false, 0, true, 0, true);
        assertThat(PolicyForms.mergeOverDefault("idle", null, "normal", above).policy().toCompact()).isEqualTo("normal");
        assertThat(PolicyForms.mergeOverDefault("idle", null, "normal", above).kept()).isEmpty();
    }

    @Test
    void shouldLetAnInnerBlockRaiseOverItsEnclosingBlockButNotOverTheDefault() {
        assertThat(PolicyForms.mergeOverDefault("nice5", "nice19", "nice10", AgentLimits.DEFAULT).policy().toCompact())
                .isEqualTo("nice10");
        assertThat(PolicyForms.mergeOverDefault("nice5", "nice19", "nice0", AgentLimits.DEFAULT).policy().toCompact())
                .isEqualTo("nice5");
    }

    @Test
    void shouldResolveInconsistentStoredLimitsTowardsLessPriority() {
        AgentLimits l = AgentLimits.lenient(false, -5, true, -1, false);
        assertThat(l.minNice()).isZero();
        assertThat(l.maxQuotaPercent()).isZero();
        assertThat(AgentLimits.lenient(true, -30, true, 0, false).minNice()).isEqualTo(-20);
    }

    @Test
    void shouldRefuseANegativeMinimumNiceWithoutAllowRaise() {
        assertThatThrownBy(() -> new AgentLimits(false, -5, true, 0, false)).isInstanceOf(InvalidPolicyException.class)
                .hasMessageContaining("needs allowRaise");
    }

    @Test
    void shouldBoundTheHandshakeTimeoutSayingWhy() {
        assertThat(SchedPolicyAgent.handshakeTimeout(30)).hasSeconds(30);
        assertThatThrownBy(() -> SchedPolicyAgent.handshakeTimeout(600)).hasMessageContaining("1..60 seconds")
                .hasMessageContaining("VM thread");
        assertThatThrownBy(() -> SchedPolicyAgent.handshakeTimeout(0)).hasMessageContaining("not 0");
    }
}
