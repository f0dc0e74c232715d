package dev.schedpolicy.engine.policy;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PolicyBuilderTest {
    @Test
    void shouldBuildTheStructuredFormEqualToTheCompactForm() {
        Policy built = Policy.builder().schedClass(SchedClass.BATCH).nice(19).io(IoPriority.idle()).cpuQuotaPercent(50)
                .build();

        assertThat(built).isEqualTo(Policy.parse("batch+nice19+io-idle+quota50"));
    }

    @Test
    void shouldAcceptTheBoundsOfEveryRange() {
        assertThatNoException().isThrownBy(() -> Policy.builder().nice(0).build());
        assertThatNoException().isThrownBy(() -> Policy.builder().nice(19).build());
        assertThatNoException().isThrownBy(() -> Policy.builder().cpuQuotaPercent(1).build());
        assertThatNoException().isThrownBy(() -> Policy.builder().cpuWeight(1).build());
        assertThatNoException().isThrownBy(() -> Policy.builder().cpuWeight(10000).build());
        assertThatNoException().isThrownBy(() -> Policy.builder().schedClass(SchedClass.FIFO).rtPriority(1).build());
        assertThatNoException().isThrownBy(() -> Policy.builder().schedClass(SchedClass.RR).rtPriority(99).build());
    }

    @Test
    void shouldRejectNiceAboveNineteen() {
        assertThatThrownBy(() -> Policy.builder().nice(20).build()).isInstanceOf(InvalidPolicyException.class)
                .hasMessage("nice must be 0..19 (19 is the lowest priority), not 20");
    }

    @Test
    void shouldRejectNiceBelowMinusTwenty() {
        assertThatThrownBy(() -> Policy.builder().nice(-21).build()).isInstanceOf(InvalidPolicyException.class)
                .hasMessageContaining("0..19").hasMessageEndingWith("not -21");
    }

    @Test
    void shouldLeaveNegativeNiceToTheLimits() {
        // the value model can express it; whether it is allowed is PolicyLimits' decision
        assertThat(Policy.builder().nice(-1).build().nice()).hasValue(-1);
    }

    @Test
    void shouldRejectZeroOrNegativeQuota() {
        assertThatThrownBy(() -> Policy.builder().cpuQuotaPercent(0).build()).isInstanceOf(InvalidPolicyException.class)
                .hasMessage("CPU quota must be a positive percent of one CPU (e.g. 50 for half a CPU, 150 for one and a half), not 0");
        assertThatThrownBy(() -> Policy.builder().cpuQuotaPercent(-50).build()).isInstanceOf(InvalidPolicyException.class)
                .hasMessageEndingWith("not -50");
    }

    @Test
    void shouldRejectWeightOutsideOneToTenThousand() {
        assertThatThrownBy(() -> Policy.builder().cpuWeight(0).build()).isInstanceOf(InvalidPolicyException.class)
                .hasMessage("CPU weight must be 1..10000 (100 is the default), not 0");
        assertThatThrownBy(() -> Policy.builder().cpuWeight(10001).build()).isInstanceOf(InvalidPolicyException.class)
                .hasMessage("CPU weight must be 1..10000 (100 is the default), not 10001");
    }

    @Test
    void shouldRejectWeightTogetherWithAnIdleGroup() {
        assertThatThrownBy(() -> Policy.builder().cpuWeight(50).cpuIdle(true).build())
                .isInstanceOf(InvalidPolicyException.class)
                .hasMessageContaining("CPU weight and cpu-idle cannot be combined").hasMessageEndingWith("use one of them");
        assertThatNoException().isThrownBy(() -> Policy.builder().cpuWeight(50).cpuIdle(false).build());
    }

    @Test
    void shouldRejectRealtimePriorityWithoutARealtimeClass() {
        assertThatThrownBy(() -> Policy.builder().rtPriority(10).build()).isInstanceOf(InvalidPolicyException.class)
                .hasMessage("a realtime priority needs the fifo or rr class");
        assertThatThrownBy(() -> Policy.builder().schedClass(SchedClass.BATCH).rtPriority(10).build())
                .isInstanceOf(InvalidPolicyException.class).hasMessage("a realtime priority needs the fifo or rr class");
    }

    @Test
    void shouldRejectRealtimePriorityOutsideOneToNinetyNine() {
        assertThatThrownBy(() -> Policy.builder().schedClass(SchedClass.FIFO).rtPriority(0).build())
                .isInstanceOf(InvalidPolicyException.class).hasMessage("realtime priority must be 1..99, not 0;"
                        + " realtime classes raise priority and are allowed only where raising is (--allow-raise as root), otherwise use"
                        + " normal, batch, idle");
        assertThatThrownBy(() -> Policy.builder().schedClass(SchedClass.RR).rtPriority(100).build())
                .isInstanceOf(InvalidPolicyException.class).hasMessageStartingWith("realtime priority must be 1..99, not 100;");
    }

    @Test
    void shouldDefaultRealtimePriorityToOne() {
        assertThat(Policy.builder().schedClass(SchedClass.FIFO).build().rtPriority()).hasValue(1);
        assertThat(Policy.builder().schedClass(SchedClass.BATCH).build().rtPriority()).isEmpty();
    }

    @Test
    void shouldTreatABlankCpuStringAsAbsent() {
        assertThat(Policy.builder().cpus(" ").build().cpus()).isEmpty();
        assertThat(Policy.builder().cpus((String) null).build().cpus()).isEmpty();
    }

    @Test
    void shouldRoundTripThroughTheBuilder() {
        Policy p = Policy.parse("idle+nice5+io-be6+quota75+cpus=1+warn");

        assertThat(p.toBuilder().build()).isEqualTo(p);
        assertThat(p.toBuilder().nice(7).build().toCompact()).isEqualTo("idle+nice7+io-be6+quota75+cpus=1+warn");
        assertThat(p.nice()).hasValue(5);
    }

    @Test
    void shouldReportTheCpuIdleSettingOnlyWhenGiven() {
        assertThat(Policy.parse("batch").cpuIdleSetting()).isEmpty();
        assertThat(Policy.parse("batch").cpuIdle()).isFalse();
        assertThat(Policy.parse("no-cpu-idle").cpuIdleSetting()).contains(false);
        assertThat(Policy.parse("cpu-idle").cpuIdle()).isTrue();
    }

    @Test
    void shouldRefuseIoClassNoneWhichTheCompactFormCannotExpress() {
        // ioprio_get reports "none" for a task that never set one; as a request it would print as io-none,
        // which parse() refuses, so a policy could not round-trip through its own compact form
        IoPriority none = IoPriority.fromKernel(0);

        assertThatThrownBy(() -> Policy.builder().io(none).build()).isInstanceOf(InvalidPolicyException.class)
                .hasMessage("I/O priority 'none' is what a task has when no I/O priority was set; leave it out, or use idle or be:N with N 0..7 (7 lowest)");
    }
}
