package dev.schedpolicy.engine.proc;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SchedStatTest {
    @Test
    void shouldTakeTheShareOfRunnableTimeSpentWaiting() {
        assertThat(new SchedStat(300, 100, 7).waitShare()).isEqualTo(0.25);
        assertThat(SchedStat.waitShare(100, 300)).isEqualTo(0.25);
        assertThat(SchedStat.waitShare(0, 0)).as("nothing was runnable").isZero();
    }

    /** A wait of -1 stands for "not measured"; it is no wait, never a negative share. */
    @Test
    void shouldCountAWaitThatWasNotMeasuredAsNone() {
        assertThat(SchedStat.waitShare(-1, 300)).isZero();
    }

    /** Between two reads of a process tree, tasks that ended take their counters with them: a delta can go negative. */
    @Test
    void shouldKeepTheShareOfANegativeDeltaWithinZeroAndOne() {
        SchedStat later = new SchedStat(1_000, 100, 5);
        SchedStat earlier = new SchedStat(900, 300, 4);
        assertThat(later.minus(earlier).waitShare()).isZero();
        assertThat(new SchedStat(900, 100, 4).minus(new SchedStat(1_000, 50, 3)).waitShare()).isEqualTo(1.0);
    }
}
