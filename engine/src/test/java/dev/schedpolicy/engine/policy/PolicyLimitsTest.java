package dev.schedpolicy.engine.policy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PolicyLimitsTest {
    private static final int TWO_CPUS = 2;
    private static final PolicyLimits DEFAULT = PolicyLimits.DEFAULT;
    private static final PolicyLimits RAISING = PolicyLimits.raising();

    @ParameterizedTest
    @ValueSource(strings = {"fifo", "fifo:50", "rr", "rr:99"})
    void shouldRefuseRealtimeClassesListingTheAllowedOnes(final String text) {
        assertThatThrownBy(() -> DEFAULT.check(Policy.parse(text), TWO_CPUS)).isInstanceOf(InvalidPolicyException.class)
                .hasMessageEndingWith("raises priority and is not allowed here; use normal, batch, idle")
                .hasMessageStartingWith("scheduling class '" + text.replaceAll(":.*", "") + "'");
    }

    @ParameterizedTest
    @ValueSource(strings = {"fifo", "rr:99", "nice-20", "nice-1", "io-be0", "io-be3", "io-rt0", "io-rt7"})
    void shouldAllowRaisingOnlyWithRaisingLimits(final String text) {
        assertThatNoException().isThrownBy(() -> RAISING.check(Policy.parse(text), TWO_CPUS));
    }

    @ParameterizedTest
    @ValueSource(ints = {-1, -5, -20})
    void shouldRefuseNegativeNiceSayingTheAllowedRange(final int nice) {
        assertThatThrownBy(() -> DEFAULT.check(Policy.builder().nice(nice).build(), TWO_CPUS))
                .isInstanceOf(InvalidPolicyException.class)
                .hasMessage("nice " + nice + " is not allowed here; use 0..19 (19 is the lowest priority; negative nice raises priority)");
    }

    @Test
    void shouldHonourARaisedMinimumNice() {
        PolicyLimits fromMinusFive = new PolicyLimits(true, -5, true, 0);

        assertThatNoException().isThrownBy(() -> fromMinusFive.check(Policy.parse("nice-5"), TWO_CPUS));
        assertThatThrownBy(() -> fromMinusFive.check(Policy.parse("nice-6"), TWO_CPUS))
                .isInstanceOf(InvalidPolicyException.class).hasMessage("nice -6 is not allowed here; use -5..19");
    }

    @Test
    void shouldHonourAPositiveMinimumNice() {
        PolicyLimits atLeastTen = new PolicyLimits(false, 10, true, 0);

        assertThatNoException().isThrownBy(() -> atLeastTen.check(Policy.parse("nice10"), TWO_CPUS));
        assertThatThrownBy(() -> atLeastTen.check(Policy.parse("nice9"), TWO_CPUS))
                .isInstanceOf(InvalidPolicyException.class).hasMessageStartingWith("nice 9 is not allowed here; use 10..19");
    }

    @ParameterizedTest
    @ValueSource(strings = {"io-be0", "io-be1", "io-be2", "io-be3"})
    void shouldRefuseBestEffortAboveTheDefaultLevelSayingWhatIsAllowed(final String text) {
        String level = text.substring("io-be".length());
        assertThatThrownBy(() -> DEFAULT.check(Policy.parse(text), TWO_CPUS)).isInstanceOf(InvalidPolicyException.class)
                .hasMessage("I/O priority 'be:" + level + "' raises priority above the default be:4 and is not allowed here; use idle or be:4..be:7");
    }

    @Test
    void shouldRefuseRealtimeIo() {
        assertThatThrownBy(() -> DEFAULT.check(Policy.parse("io-rt7"), TWO_CPUS)).isInstanceOf(InvalidPolicyException.class)
                .hasMessageStartingWith("I/O priority 'rt:7' raises priority").hasMessageEndingWith("use idle or be:4..be:7");
    }

    @ParameterizedTest
    @ValueSource(strings = {"io-be4", "io-be7", "io-idle", "idle+nice19+io-idle", "batch+nice0", "normal", "default"})
    void shouldAllowEverythingThatOnlyLowersPriority(final String text) {
        assertThatNoException().isThrownBy(() -> DEFAULT.check(Policy.parse(text), TWO_CPUS));
    }

    @Test
    void shouldRefuseAQuotaAboveAllCpusSayingTheMaximum() {
        assertThatNoException().isThrownBy(() -> DEFAULT.check(Policy.parse("quota200"), TWO_CPUS));
        assertThatThrownBy(() -> DEFAULT.check(Policy.parse("quota201"), TWO_CPUS))
                .isInstanceOf(InvalidPolicyException.class)
                .hasMessage("CPU quota 201% is above the allowed maximum; use 1..200 (percent of one CPU, 2 CPUs here)");
        assertThatNoException().isThrownBy(() -> DEFAULT.check(Policy.parse("quota800"), 8));
    }

    @Test
    void shouldRefuseAQuotaAboveTheAdministratorsMaximum() {
        PolicyLimits halfACpu = new PolicyLimits(false, 0, true, 50);

        assertThatNoException().isThrownBy(() -> halfACpu.check(Policy.parse("quota50"), TWO_CPUS));
        assertThatThrownBy(() -> halfACpu.check(Policy.parse("quota51"), TWO_CPUS))
                .isInstanceOf(InvalidPolicyException.class)
                .hasMessage("CPU quota 51% is above the allowed maximum; use 1..50 (percent of one CPU, set by the administrator)");
    }

    @ParameterizedTest
    @ValueSource(strings = {"quota50", "weight50", "cpu-idle", "batch+cpu-idle"})
    void shouldRefuseCgroupControlsWhenDisabledSayingWhatStillWorks(final String text) {
        PolicyLimits noCgroups = new PolicyLimits(false, 0, false, 0);

        assertThatThrownBy(() -> noCgroups.check(Policy.parse(text), TWO_CPUS)).isInstanceOf(InvalidPolicyException.class)
                .hasMessage("cgroup controls (quota, weight, cpu-idle) are disabled by the administrator; use a scheduling class, nice or I/O priority");
    }

    @Test
    void shouldAllowPerTaskControlsWhenCgroupsAreDisabled() {
        PolicyLimits noCgroups = new PolicyLimits(false, 0, false, 0);

        assertThatNoException().isThrownBy(() -> noCgroups.check(Policy.parse("idle+nice19+io-idle+no-cpu-idle+cpus=0"), TWO_CPUS));
    }

    @Test
    void shouldRefuseANegativeMinimumNiceWithoutAllowRaise() {
        assertThatThrownBy(() -> new PolicyLimits(false, -1, true, 0)).isInstanceOf(InvalidPolicyException.class)
                .hasMessage("a negative minimum nice (-1) needs allowRaise");
    }

    @Test
    void shouldRefuseAMinimumNiceOutsideTheKernelRange() {
        assertThatThrownBy(() -> new PolicyLimits(true, -21, true, 0)).isInstanceOf(InvalidPolicyException.class)
                .hasMessage("minimum nice must be -20..19, not -21");
        assertThatThrownBy(() -> new PolicyLimits(false, 20, true, 0)).isInstanceOf(InvalidPolicyException.class)
                .hasMessage("minimum nice must be -20..19, not 20");
    }

    @Test
    void shouldRefuseANegativeMaximumQuota() {
        assertThatThrownBy(() -> new PolicyLimits(false, 0, true, -1)).isInstanceOf(InvalidPolicyException.class)
                .hasMessage("maximum CPU quota must be 0 (no limit beyond the CPUs) or a positive percent, not -1");
    }

    @ParameterizedTest
    @ValueSource(ints = {101, 200, 10000})
    void shouldRefuseACpuWeightAboveTheDefaultUnlessRaisingIsAllowed(final int weight) {
        // a group weighted above 100 gets more than a default sibling: a container at --cpu-shares=102400 beside others
        assertThatThrownBy(() -> DEFAULT.check(Policy.parse("weight" + weight), TWO_CPUS)).isInstanceOf(InvalidPolicyException.class)
                .hasMessage("CPU weight " + weight + " raises priority above the default 100 and is not allowed here; use 1..100"
                        + " (1 is the lowest)");
        assertThatNoException().isThrownBy(() -> RAISING.check(Policy.parse("weight" + weight), TWO_CPUS));
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 50, 100})
    void shouldAllowACpuWeightUpToTheDefault(final int weight) {
        assertThatNoException().isThrownBy(() -> DEFAULT.check(Policy.parse("weight" + weight), TWO_CPUS));
    }
}
