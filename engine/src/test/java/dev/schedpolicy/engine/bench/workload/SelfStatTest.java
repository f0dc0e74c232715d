package dev.schedpolicy.engine.bench.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class SelfStatTest {
    @Test
    void shouldCountOnlyTheNamedThreadsWhenGivenAPrefix() {
        Map<Long, SelfStat.Thread> before = Map.of(
                1L, new SelfStat.Thread("java", 10, 5, 1),
                2L, new SelfStat.Thread("victim-w0", 100, 10, 3));
        Map<Long, SelfStat.Thread> after = Map.of(
                1L, new SelfStat.Thread("java", 12, 2_005, 2), // asleep, yet charged a window of run-queue wait
                2L, new SelfStat.Thread("victim-w0", 1_100, 20, 9),
                3L, new SelfStat.Thread("victim-w1", 500, 7, 4)); // born in between: counts fully

        assertThat(SelfStat.delta(before, after, "victim-w")).containsExactly(1_500, 17, 10);
        assertThat(SelfStat.delta(before, after)).containsExactly(1_502, 2_017, 11);
    }

    @Test
    void shouldReadThisJvmsThreadsFromProcByName() throws InterruptedException {
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch stop = new CountDownLatch(1);
        Thread worker = new Thread(() -> {
            running.countDown();
            try {
                stop.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "victim-w7");
        worker.start();
        running.await();
        try {
            Map<Long, SelfStat.Thread> now = SelfStat.threads();
            assertThat(now.values()).extracting(SelfStat.Thread::name).contains("victim-w7");
            long[] all = SelfStat.total(now);
            long[] named = SelfStat.delta(Map.of(), now, "victim-w7");
            assertThat(named[0]).isPositive().isLessThan(all[0]);
        } finally {
            stop.countDown();
            worker.join();
        }
    }
}
