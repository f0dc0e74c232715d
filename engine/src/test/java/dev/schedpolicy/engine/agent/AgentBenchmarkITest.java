package dev.schedpolicy.engine.agent;

import dev.schedpolicy.engine.bench.BenchListener;
import dev.schedpolicy.engine.buildpage.BenchmarkSummary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** An aborted build cancels its benchmark on the agent: the run ends early with the reason in its report. */
@EnabledOnOs(OS.LINUX)
class AgentBenchmarkITest {
    @Test
    void shouldStopARunningBenchmarkWhenItsRunKeyIsCancelled() throws Exception {
        AgentBenchmark.Request request = new AgentBenchmark.Request("seed-cpu-looper", null, "default,idle", "0,1", 3, null,
                null, null);
        CompletableFuture<String> json = CompletableFuture.supplyAsync(() -> AgentBenchmark.run("run-1", request,
                AgentLimits.DEFAULT, new BenchListener() {
                    @Override
                    public void started(final String summary, final int runsPlanned) {
                        assertThat(AgentBenchmark.cancel("run-1", "the build was aborted")).isTrue();
                    }
                }));
        assertThat(json.get(5, TimeUnit.MINUTES)).contains("the build was aborted");
        assertThat(AgentBenchmark.cancel("run-1", "again")).isFalse();
    }

    /** Issue 31 item 14: a benchmark that outruns the administrator's length cap is stopped there, its runs so far kept. */
    @Test
    void shouldStopABenchmarkThatOutrunsTheLengthCap() throws Exception {
        AgentBenchmark.Request request = new AgentBenchmark.Request("seed-cpu-looper", null, "default,idle", "0,1", 3, null,
                null, null);
        long start = System.nanoTime();
        String json = AgentBenchmark.run("run-capped", request, AgentLimits.DEFAULT, null,
                new BenchmarkCaps(8, 50, 5, "Manage Jenkins » System » Sched Policy"), java.time.Duration.ofSeconds(3), new BenchListener() {
                });
        assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start)).as("stopped near the cap, not after its ~40 s").isLessThan(20);
        assertThat(json).contains("stopped at the administrator's cap of 5 minutes for one benchmark (Manage Jenkins » System » Sched Policy)");
        assertThat(BenchmarkSummary.fromJson(json).partial()).isTrue();
    }
}
