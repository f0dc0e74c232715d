package dev.schedpolicy.engine.agent;

import dev.schedpolicy.engine.launch.LaunchConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Launches measured as the plugin measures them: parked, started by someone else, released, their work in the
 * background as durable-task's {@code nohup sh -c "(...) &"} leaves it, and collected after it ended.
 */
@EnabledOnOs(OS.LINUX)
class LaunchMeasuresITest {
    @TempDir
    Path state;

    private HandshakeRegistry registry;

    @BeforeEach
    void setUp() {
        registry = new HandshakeRegistry(LaunchConfig.defaults().withStateDir(state), Path.of("/proc"), Duration.ofHours(1));
    }

    @AfterEach
    void tearDown() {
        registry.close();
    }

    private String launch(final String policy, final String label, final String background) throws Exception {
        return launch(policy, label, label.substring(0, label.indexOf(' ')), background);
    }

    private String launch(final String policy, final String label, final String owner, final String background) throws Exception {
        PreparedLaunch prepared = registry.prepare(LaunchRequest.of("block-" + label, policy)
                .pendingFor(Duration.ofSeconds(30)));
        assertThat(registry.measure(prepared.id(), label, owner)).isEmpty();
        // the first process returns at once; the work goes on in the background, as a durable task's does
        Process p = new ProcessBuilder(prepared.prefix(List.of("/bin/sh", "-c", "(" + background + ") >/dev/null 2>&1 &")))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        registry.release(prepared.id(), Duration.ofSeconds(10));
        assertThat(p.waitFor()).isZero();
        return prepared.id();
    }

    @Test
    void shouldMeasureTheBackgroundWorkToItsEndAndNameTheLaunchBesideIt() throws Exception {
        String compile = launch("normal", "compile #212 (no policy)",
                "for i in 1 2 3 4; do timeout 6 sh -c 'while :; do :; done' & done; wait");
        String test = launch("normal", "test #7 (no policy)", "i=0; while [ $i -lt 400000 ]; do i=$((i+1)); done");

        List<MeasureRecord> tests = registry.collectMeasures(List.of(test), Duration.ofSeconds(60), true).records();
        assertThat(tests).hasSize(1);
        MeasureRecord t = tests.get(0);
        assertThat(t.ended()).as(t.toString()).isTrue();
        assertThat(t.label()).isEqualTo("test #7 (no policy)");
        assertThat(t.waitMeasured()).isTrue();
        assertThat(t.waitShare()).as(t.toString()).isGreaterThan(0.2);
        assertThat(t.neighbourLabels()).as(t.toString()).contains("compile #212 (no policy)");
        assertThat(t.neighboursFor("compile"::equals)).as("a reader of compile's builds").extracting(MeasureRecord.Shown::label)
                .contains("compile #212 (no policy)");
        assertThat(t.neighboursFor(owner -> false)).as("a reader of no other job").extracting(MeasureRecord.Shown::label)
                .doesNotContain("compile #212 (no policy)").contains(MeasureRecord.ANOTHER_BUILD);
        assertThat(t.cpuNanos()).isGreaterThan(100_000_000L);

        List<MeasureRecord> compiles = registry.collectMeasures(List.of(compile), Duration.ofSeconds(60), true).records();
        assertThat(compiles).hasSize(1);
        assertThat(compiles.get(0).ended()).isTrue();
        // four loops for 6 s each: all their CPU is in processes the first one left behind (a busy machine gave them
        // 1.5 s of the 24 s they could have used), and they waited for most of the rest
        MeasureRecord c = compiles.get(0);
        assertThat(c.cpuNanos()).as(c.toString()).isGreaterThan(300_000_000L);
        assertThat((double) (c.cpuNanos() + c.waitNanos()) / c.wallNanos()).as(c.toString()).isBetween(3.0, 4.2);
        assertThat(registry.collectMeasures(List.of(compile), Duration.ZERO, true).records()).as("collected once").isEmpty();
    }

    @Test
    void shouldCountTheTimeAQuotaThrottledApartFromTheWait() throws Exception {
        // 20% of one CPU around a busy loop: the kernel holds the group back about 80% of the time, which per-task
        // schedstat counts as run-queue wait, though no other task took the CPU
        String id = launch("quota20", "quota #1 (quota20)", "timeout 3 sh -c 'while :; do :; done'");
        List<MeasureRecord> r = registry.collectMeasures(List.of(id), Duration.ofSeconds(30), true).records();
        assertThat(r).hasSize(1);
        MeasureRecord q = r.get(0);
        assertThat(q.ended()).as(q.toString()).isTrue();
        assertThat(q.waitMeasured()).as(q.toString()).isTrue();
        assertThat(q.quotaApplied()).as(q.toString()).isTrue();
        assertThat(q.throttledNanos()).as(q.toString()).isPositive();
        // the loop is runnable for its whole 3 s: on a CPU, waiting for one, or held by its quota, never two of these at
        // once. Counted twice (the hold also as wait) the sum reached 1.7 times the wall; left out, it would fall short.
        // How the 3 s split between hold and wait depends on the machine's load (a busy machine delays the loop's 20%
        // to the end of each period, and the hold shrinks); the sum does not.
        long runnable = q.cpuNanos() + q.waitNanos() + q.throttledNanos();
        assertThat(runnable).as("the quota's hold is not also a wait for a CPU: " + q).isLessThan(q.wallNanos() * 11 / 10);
        assertThat(runnable).as("the hold and the wait together are the loop's time: " + q).isGreaterThan(2_500_000_000L);
    }

    @Test
    void shouldEndAStillRunningLaunchAtCollectionWithANote() throws Exception {
        String id = launch("idle", "daemon #1 (idle)", "timeout 5 sh -c 'while :; do :; done'");
        Thread.sleep(500);
        List<MeasureRecord> r = registry.collectMeasures(List.of(id), Duration.ZERO, true).records();
        assertThat(r).hasSize(1);
        assertThat(r.get(0).ended()).isFalse();
        assertThat(r.get(0).notes()).anySatisfy(n -> assertThat(n).contains("still ran"));
    }

    @Test
    void shouldDropTheMeterOfAnAbortedLaunch() throws Exception {
        PreparedLaunch prepared = registry.prepare(LaunchRequest.of("block-a", "normal").pendingFor(Duration.ofSeconds(30)));
        registry.measure(prepared.id(), "never #1");
        registry.abort(prepared.id(), "test");
        assertThat(registry.collectMeasures(List.of(prepared.id()), Duration.ZERO, true).records()).isEmpty();
    }
}
