package dev.schedpolicy.engine.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The fleet's probe queue with probes whose answers come from a generator after a delay: how many run at once, the
 * timeout, and forgetting deleted agents. (The real probe through remoting is the live suite's 86-fleet.)
 */
class FleetProbeQueueTest {
    private static final String JSON = FleetFixtures.underIdleParent().toJson();
    private final ScheduledExecutorService agents = Executors.newScheduledThreadPool(4);

    @AfterEach
    void stop() {
        agents.shutdownNow();
    }

    /** An agent that answers after {@code millis}, counting the calls open at once. */
    private FleetProbeQueue.Prober answering(final long millis, final AtomicInteger open, final AtomicInteger peak) {
        return () -> {
            peak.accumulateAndGet(open.incrementAndGet(), Math::max);
            CompletableFuture<String> f = new CompletableFuture<>();
            agents.schedule(() -> {
                open.decrementAndGet();
                f.complete(JSON);
            }, millis, TimeUnit.MILLISECONDS);
            return f;
        };
    }

    private static void await(final FleetProbeQueue q, final int results) throws InterruptedException {
        for (int i = 0; i < 3000 && (q.size() < results || q.inFlight() > 0); i++) {
            Thread.sleep(10);
        }
    }

    @Test
    void shouldProbeAThousandAgentsWithNoMoreThanSixteenCallsOpenAtOnce() throws Exception {
        FleetProbeQueue q = new FleetProbeQueue(16, Duration.ofSeconds(30), "test probe");
        AtomicInteger open = new AtomicInteger();
        AtomicInteger peak = new AtomicInteger();
        long start = System.nanoTime();
        for (int i = 0; i < 1000; i++) {
            assertThat(q.submit("agent-" + i, answering(5 + i % 20, open, peak))).isTrue();
        }
        await(q, 1000);
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertThat(q.size()).isEqualTo(1000);
        assertThat(q.result("agent-999").summary()).isEqualTo(FleetFixtures.underIdleParent());
        assertThat(peak.get()).as("calls open at once on the agents' side").isEqualTo(16);
        assertThat(q.peakInFlight()).isEqualTo(16);
        // 1,000 answers of 5-24 ms (14.5 on average) 16 at a time: about 0.9 s of waiting
        System.out.printf("FleetProbeQueueTest: 1000 generated probes of 5-24 ms, 16 in flight: %d ms%n", millis);
        assertThat(millis).isLessThan(30_000);
    }

    @Test
    void shouldRecordAnAgentThatDoesNotAnswerAsFailedAndFreeItsSlot() throws Exception {
        FleetProbeQueue q = new FleetProbeQueue(1, Duration.ofMillis(300), "test probe");
        CompletableFuture<String> stuck = new CompletableFuture<>();
        q.submit("stuck", () -> stuck);
        q.submit("fine", answering(1, new AtomicInteger(), new AtomicInteger()));
        await(q, 2);
        assertThat(q.result("stuck").error()).isEqualTo("no answer within 0.3 s (the agent is busy or stuck)");
        assertThat(q.result("stuck").tookMillis()).isBetween(300L, 5_000L);
        assertThat(stuck).isCancelled();
        assertThat(q.result("fine").summary()).isNotNull();
    }

    @Test
    void shouldGiveAProbeSubmittedWithATimeoutOfItsOwnThatTimeout() throws Exception {
        FleetProbeQueue q = new FleetProbeQueue(2, Duration.ofMillis(100), "test probe");
        CompletableFuture<String> first = new CompletableFuture<>();
        q.submit("fresh", () -> first, Duration.ofSeconds(10));
        q.submit("warm", CompletableFuture::new);
        Thread.sleep(1000);
        assertThat(q.result("warm").error()).startsWith("no answer within 0.1 s");
        first.complete(JSON);
        await(q, 2);
        assertThat(q.result("fresh").summary()).isNotNull();
    }

    @Test
    void shouldNotQueueASecondProbeOfAnAgentWhoseProbeIsPending() throws Exception {
        FleetProbeQueue q = new FleetProbeQueue(2, Duration.ofSeconds(5), "test probe");
        CompletableFuture<String> slow = new CompletableFuture<>();
        assertThat(q.submit("a", () -> slow)).isTrue();
        assertThat(q.submit("a", () -> CompletableFuture.completedFuture(JSON))).isFalse();
        assertThat(q.pending("a")).isTrue();
        slow.complete(JSON);
        await(q, 1);
        assertThat(q.pending("a")).isFalse();
        assertThat(q.started()).isEqualTo(1);
    }

    @Test
    void shouldDropADeletedAgentAndAnAnswerThatArrivesAfterwards() throws Exception {
        FleetProbeQueue q = new FleetProbeQueue(4, Duration.ofSeconds(5), "test probe");
        q.submit("kept", () -> CompletableFuture.completedFuture(JSON));
        q.submit("gone", () -> CompletableFuture.completedFuture(JSON));
        await(q, 2);
        CountDownLatch asked = new CountDownLatch(1);
        CompletableFuture<String> late = new CompletableFuture<>();
        q.submit("pod-1", () -> {
            asked.countDown();
            return late;
        });
        assertThat(asked.await(5, TimeUnit.SECONDS)).isTrue();
        q.forget("pod-1");
        q.retainOnly(Set.of("kept"));
        late.complete(JSON);
        Thread.sleep(200);
        assertThat(q.result("pod-1")).isNull();
        assertThat(q.result("gone")).isNull();
        assertThat(q.size()).isEqualTo(1);
    }

    @Test
    void shouldKeepTheLastResultWhenTheAgentWentOfflineBeforeItsProbe() throws Exception {
        FleetProbeQueue q = new FleetProbeQueue(1, Duration.ofSeconds(5), "test probe");
        q.submit("a", () -> CompletableFuture.completedFuture(JSON));
        await(q, 1);
        ProbeResult before = q.result("a");
        q.submit("a", () -> null);
        Thread.sleep(200);
        assertThat(q.result("a")).isSameAs(before);
    }

    @Test
    void shouldRefuseAQueueThatCouldNeverProbe() {
        assertThatThrownBy(() -> new FleetProbeQueue(0, Duration.ofSeconds(1), "x")).isInstanceOf(IllegalArgumentException.class);
    }
}
