package dev.schedpolicy.engine.agent;

import dev.schedpolicy.engine.measure.MeasureBook;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An agent keeps the ended launches' figures of all builds until the controller collects them, at most a fixed number:
 * what it evicts, and what it never had, is said as such when the controller asks (real processes, real /proc).
 */
@EnabledOnOs(OS.LINUX)
class LaunchMeasuresEvictionITest {
    private final LaunchMeasures measures = new LaunchMeasures(MeasureBook.system(), 2);

    @AfterEach
    void tearDown() {
        measures.close();
    }

    /** Measures one process running {@code script} under {@code id}; returns the process. */
    private Process launch(final String id, final String script) throws Exception {
        measures.open(id, id + " #1 (no policy)", false);
        Process p = new ProcessBuilder("/bin/sh", "-c", script).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        measures.attach(id, p.pid());
        return p;
    }

    private void endedOne(final String id) throws Exception {
        launch(id, "true").waitFor();
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (measures.isRunning(id) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(measures.isRunning(id)).as("%s ended", id).isFalse();
    }

    @Test
    void shouldSayALaunchWasEvictedUnreadNotThatTheAgentRestarted() throws Exception {
        endedOne("a");
        endedOne("b");
        endedOne("c");
        MeasureCollection got = measures.collect(List.of("a", "b", "c", "never"), Duration.ZERO, true);
        assertThat(got.records()).extracting(MeasureRecord::id).containsExactly("b", "c");
        assertThat(got.lost()).containsOnlyKeys("a", "never");
        assertThat(got.lost().get("a")).contains("evicted", "at most 2 ended launches", "all builds").doesNotContain("restart");
        assertThat(got.lost().get("never")).contains("no figures").doesNotContain("evicted");
    }

    @Test
    void shouldCollectEndedLaunchesAsTheBuildGoesAndLeaveRunningOnesMeasured() throws Exception {
        endedOne("done");
        Process running = launch("running", "sleep 1");
        MeasureCollection early = measures.collect(List.of("done", "running"), Duration.ZERO, false);
        assertThat(early.records()).extracting(MeasureRecord::id).containsExactly("done");
        assertThat(early.lost()).as("a running launch is not lost").isEmpty();
        assertThat(early.running()).containsExactly("running");
        running.waitFor();
        MeasureCollection late = measures.collect(List.of("running"), Duration.ofSeconds(20), true);
        assertThat(late.records()).singleElement().satisfies(r -> assertThat(r.ended()).isTrue());
        assertThat(late.running()).isEmpty();
    }

    @Test
    void shouldLineUpLostLaunchesByReason() {
        Map<String, String> lost = new LinkedHashMap<>();
        lost.put("x", "evicted");
        lost.put("y", "agent gone");
        lost.put("z", "evicted");
        assertThat(MeasureCollection.lostLines(lost, id -> "p #1 › sh '" + id + "'", "agent-1")).containsExactly(
                "2 launches on agent-1 (the first p #1 › sh 'x'): evicted", "p #1 › sh 'y' on agent-1: agent gone");
    }
}
