package dev.schedpolicy.engine.policy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** "Never more favoured than the caller": class, nice and I/O priority compared with the caller's own. */
class CallerPriorityTest {
    private static final int NORMAL = 0;
    private static final int BATCH = 3;
    private static final int IDLE = 5;
    private static final int FIFO = 1;
    private static final int NONE = 0;
    private static final int IO_IDLE = 3 << 13;

    private static CallerPriority caller(final int policy, final int nice, final int io) {
        return new CallerPriority(policy, policy == FIFO ? 10 : 0, nice, io);
    }

    /** The matrix of issue 11 item 4 and its neighbours: caller (class, nice, raw io), policy, raised or not. */
    @ParameterizedTest(name = "caller {0}/nice {1}/io {2}, policy {3} -> raises: {4}")
    @CsvSource({
        "0, 10, 0,    nice0,        true",
        "0, 10, 0,    nice5,        true",
        "0, 10, 0,    nice10,       false",
        "0, 10, 0,    nice19,       false",
        "0, 10, 0,    idle,         false",
        "0, 10, 0,    io-be5,       true",
        "0, 10, 0,    io-be6,       false",
        "0, 10, 0,    io-idle,      false",
        "5, 0,  0,    normal,       true",
        "5, 0,  0,    batch,        true",
        "5, 0,  0,    idle,         false",
        "5, 0,  0,    nice5,        false",
        "5, 10, 0,    nice5,        true",
        "3, 10, 0,    idle+nice0,   true",
        "5, 0,  0,    io-be7,       true",
        "5, 0,  0,    io-idle,      false",
        "3, 0,  0,    normal,       true",
        "3, 0,  0,    batch,        false",
        "3, 0,  0,    idle,         false",
        "0, 0,  24576, io-be4,      true",
        "0, 0,  24576, io-idle,     false",
        "0, 0,  24576, nice19,      false",
        "0, 0,  0,    batch+nice19, false",
        "0, 0,  0,    normal,       false",
        "0, 0,  0,    io-be4,       false",
        "0, 0,  0,    fifo:1,       true",
        "1, 0,  0,    fifo:10,      false",
        "1, 0,  0,    rr:11,        true",
        "1, 0,  0,    normal,       false",
    })
    void shouldRefuseExactlyWhatFavoursTheCommandOverItsCaller(final int policy, final int nice, final int io, final String asked,
            final boolean raises) {
        assertThat(caller(policy, nice, io).raisesOf(Policy.parse(asked)).isEmpty()).isNotEqualTo(raises);
    }

    @Test
    void shouldNameTheCallersValueAndTheAllowedRange() {
        assertThatThrownBy(() -> caller(NORMAL, 10, NONE).check(Policy.parse("nice0")))
                .isInstanceOf(InvalidPolicyException.class)
                .hasMessage("nice 0 is more favoured than the caller's nice 10; use 10..19 (a command never gets more than its"
                        + " caller has unless raising is allowed: --allow-raise as root)");
        assertThat(caller(IDLE, 0, NONE).raisesOf(Policy.parse("batch")))
                .containsExactly("scheduling class batch is more favoured than the caller's idle; use idle");
        assertThat(caller(BATCH, 0, NONE).raisesOf(Policy.parse("normal")))
                .containsExactly("scheduling class normal is more favoured than the caller's batch; use batch, idle");
        assertThat(caller(NORMAL, 0, IO_IDLE).raisesOf(Policy.parse("io-be4")))
                .containsExactly("I/O priority be:4 is more favoured than the caller's idle; use idle");
        assertThat(caller(NORMAL, 10, NONE).raisesOf(Policy.parse("io-be4")))
                .containsExactly("I/O priority be:4 is more favoured than the caller's be:6 (which follows its CPU priority);"
                        + " use be:6..be:7 or idle");
    }

    @Test
    void shouldNotReportTheIoPriorityThatOnlyFollowsARaisedNice() {
        assertThat(caller(NORMAL, 10, NONE).raisesOf(Policy.parse("nice0"))).hasSize(1);
    }

    @Test
    void shouldLetRaisingLimitsSkipTheRelativeRule() {
        CallerPriority lowered = caller(IDLE, 10, IO_IDLE);
        Policy normal = Policy.parse("normal+nice0+io-be4");

        assertThatNoException().isThrownBy(() -> PolicyLimits.raising().check(normal, 2, lowered));
        assertThatThrownBy(() -> PolicyLimits.DEFAULT.check(normal, 2, lowered)).isInstanceOf(InvalidPolicyException.class)
                .hasMessageContaining("scheduling class normal is more favoured than the caller's idle")
                .hasMessageContaining("I/O priority be:4 is more favoured than the caller's idle");
    }

    @Test
    void shouldLeaveADefaultCallerToTheAbsoluteLimits() {
        assertThat(CallerPriority.DEFAULT.raisesOf(Policy.parse("batch+nice19+io-idle+quota50"))).isEmpty();
    }
}
