package dev.schedpolicy.engine.policy;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Nested withSchedPolicy blocks: the inner block wins per field, fields it leaves out come from outside. */
class OverriddenByTest {
    @Test
    void shouldLetTheInnerPolicyWinPerField() {
        Policy outer = Policy.parse("batch+nice10+io-be7+quota50+cpus=0-1");
        Policy inner = Policy.parse("nice19+io-idle");

        Policy merged = outer.overriddenBy(inner);

        assertThat(merged.toCompact()).isEqualTo("batch+nice19+io-idle+quota50+cpus=0-1");
    }

    @Test
    void shouldOverrideEveryFieldWhenTheInnerSetsThemAll() {
        Policy outer = Policy.parse("batch+nice10+io-be7+quota50+weight200+cpus=0+fail");
        Policy inner = Policy.parse("idle+nice19+io-idle+quota25+weight50+cpus=1+warn");

        assertThat(outer.overriddenBy(inner)).isEqualTo(inner);
    }

    @Test
    void shouldKeepTheOuterPolicyWhenTheInnerIsDefault() {
        Policy outer = Policy.parse("idle+nice19+io-idle+cpu-idle+quota50+cpus=1+warn");

        assertThat(outer.overriddenBy(Policy.DEFAULT)).isEqualTo(outer);
        assertThat(Policy.DEFAULT.overriddenBy(outer)).isEqualTo(outer);
    }

    @Test
    void shouldMergeThreeNestedBlocksInnermostFirst() {
        Policy outermost = Policy.parse("batch+nice5+quota150");
        Policy middle = Policy.parse("nice10+io-be6+warn");
        Policy innermost = Policy.parse("idle+io-idle");

        Policy merged = outermost.overriddenBy(middle).overriddenBy(innermost);

        assertThat(merged.toCompact()).isEqualTo("idle+nice10+io-idle+quota150+warn");
        // associativity: merging the inner two first gives the same policy
        assertThat(outermost.overriddenBy(middle.overriddenBy(innermost))).isEqualTo(merged);
    }

    @Test
    void shouldTakeTheRealtimePriorityTogetherWithTheClass() {
        Policy outer = Policy.parse("fifo:50");

        assertThat(outer.overriddenBy(Policy.parse("batch")).toCompact()).isEqualTo("batch");
        assertThat(outer.overriddenBy(Policy.parse("nice5")).toCompact()).isEqualTo("fifo:50+nice5");
        assertThat(Policy.parse("batch").overriddenBy(Policy.parse("rr:7")).toCompact()).isEqualTo("rr:7");
    }

    @Test
    void shouldLetAnInnerNoCpuIdleSwitchOffTheOuterIdleGroup() {
        Policy merged = Policy.parse("cpu-idle+quota50").overriddenBy(Policy.parse("no-cpu-idle"));

        assertThat(merged.cpuIdle()).isFalse();
        assertThat(merged.toCompact()).isEqualTo("quota50+no-cpu-idle");
    }

    @Test
    void shouldLetAnInnerOnUnsupportedWinAndKeepTheOuterOtherwise() {
        assertThat(Policy.parse("batch+warn").overriddenBy(Policy.parse("nice5")).onUnsupported()).isEqualTo(OnUnsupported.WARN);
        assertThat(Policy.parse("batch+warn").overriddenBy(Policy.parse("fail")).onUnsupported()).isEqualTo(OnUnsupported.FAIL);
    }

    @Test
    void shouldLeaveBothInputsUnchanged() {
        Policy outer = Policy.parse("batch+nice10");
        Policy inner = Policy.parse("idle");

        outer.overriddenBy(inner);

        assertThat(outer.toCompact()).isEqualTo("batch+nice10");
        assertThat(inner.toCompact()).isEqualTo("idle");
    }

    @Test
    void shouldLetAnInnerIdleGroupReplaceAnOuterWeight() {
        Policy merged = Policy.parse("weight200+quota50").overriddenBy(Policy.parse("cpu-idle"));

        assertThat(merged.toCompact()).isEqualTo("quota50+cpu-idle");
    }

    @Test
    void shouldLetAnInnerWeightReplaceAnOuterIdleGroup() {
        Policy merged = Policy.parse("cpu-idle+nice5").overriddenBy(Policy.parse("weight50"));

        assertThat(merged.toCompact()).isEqualTo("nice5+weight50");
    }
}
