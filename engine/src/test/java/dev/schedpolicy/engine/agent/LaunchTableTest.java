package dev.schedpolicy.engine.agent;

import dev.schedpolicy.engine.measure.Neighbour;
import dev.schedpolicy.engine.measure.StepMeasure;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The stored form of a build's launches: everything back as it was, each text once, a corrupt line said as such. */
class LaunchTableTest {
    private static final String NOTE = "without an accounting group, processes that leave the step's process tree (setsid,"
            + " daemonised, or orphaned when their parent ends) are not counted, and CPU is what the samples saw";

    /** A launch of a long build, as this machine's agent records it (no accounting group: the long note). */
    static LaunchTable.Row launch(final int i) {
        List<Neighbour> beside = new ArrayList<>();
        for (int n = 0; n < 8; n++) {
            beside.add(new Neighbour("team-" + n + "/service-" + n + "/main #" + (1200 + n) + " › stage 'Integration tests' › sh"
                    + " (no policy)", 9_000_000L - n * 1_000_000L));
        }
        StepMeasure m = new StepMeasure("my-org/my-repo/main #4711 › stage 'Build " + i / 500 + "' › sh (no policy)",
                "the process tree from /proc (no accounting group: cpuacct is mounted with cpu) + per-task"
                        + " /proc/TID/schedstat, sampled 12 times (every 100 ms on average)",
                1_234_567_890L + i, OptionalLong.empty(), 987_654_321L + i, 45_678_901L + i, OptionalLong.empty(), beside,
                3_000_000L, List.of(NOTE));
        return new LaunchTable.Row("linux-agent-" + i % 3, "normal", "Build " + i / 500, i % 2 == 0 ? "" : "lint",
                "sh 'make target-" + i + "'", new MeasureRecord("hs" + (1_000_000_000L + i), m, i % 7 != 0));
    }

    @Test
    void shouldReadBackEveryFigureAndText() {
        List<LaunchTable.Row> rows = List.of(launch(0), launch(1),
                new LaunchTable.Row("", "idle", null, null, null, launch(2).record()));
        LaunchTable.Encoded e = LaunchTable.encode(rows);
        List<LaunchTable.Row> back = LaunchTable.decode(e.texts(), e.rows());
        assertThat(back).hasSize(3);
        for (int i = 0; i < 3; i++) {
            LaunchTable.Row a = rows.get(i);
            LaunchTable.Row b = back.get(i);
            assertThat(List.of(b.node(), b.policy())).isEqualTo(List.of(a.node(), a.policy()));
            assertThat(new Object[] {b.stage(), b.branch(), b.step()}).isEqualTo(new Object[] {a.stage(), a.branch(), a.step()});
            assertThat(b.record().toString()).isEqualTo(a.record().toString());
            assertThat(b.record().figures()).isEqualTo(a.record().figures());
            assertThat(b.record().id()).isEqualTo(a.record().id());
        }
        assertThat(e.texts()).as("each text once").doesNotHaveDuplicates();
    }

    @Test
    void shouldReadBackThatALaunchWasMeasuredInAContainer() {
        StepMeasure exec = new StepMeasure("i #1 › sh (normal)", "container 0123456789ab: the processes of its cpu cgroup"
                + " /docker/0123456789ab... started by this exec (its marker in /proc/PID/environ)", 3_000_000_000L,
                OptionalLong.empty(), 2_000_000_000L, 100_000_000L, OptionalLong.empty(), List.of(), 100_000_000L, List.of());
        LaunchTable.Encoded e = LaunchTable.encode(List.of(new LaunchTable.Row("", "normal", "", "", "sh",
                new MeasureRecord("ct-1", exec, true)), launch(1)));
        List<LaunchTable.Row> back = LaunchTable.decode(e.texts(), e.rows());
        assertThat(back.get(0).record().inContainer()).isTrue();
        assertThat(back.get(1).record().inContainer()).as("a launch of ours").isFalse();
    }

    @Test
    void shouldReadBackTheTimeAQuotaHeldALaunchBackAndNoneForALaunchWithoutQuota() {
        StepMeasure quota = new StepMeasure("q #1 › sh (quota20)", "test", 3_000_000_000L, OptionalLong.of(600_000_000L),
                600_000_000L, 100_000_000L, OptionalLong.empty(), List.of(), 100_000_000L, List.of(), 2_300_000_000L);
        List<LaunchTable.Row> rows = List.of(new LaunchTable.Row("", "quota20", "", "", "sh",
                new MeasureRecord("hs-q", quota, true)), launch(1));
        LaunchTable.Encoded e = LaunchTable.encode(rows);
        List<LaunchTable.Row> back = LaunchTable.decode(e.texts(), e.rows());
        assertThat(back.get(0).record().quotaApplied()).isTrue();
        assertThat(back.get(0).record().throttledNanos()).isEqualTo(2_300_000_000L);
        assertThat(back.get(1).record().quotaApplied()).isFalse();
        assertThat(back.get(1).record().throttledNanos()).isEqualTo(-1);
    }

    @Test
    void shouldKeepFiveThousandLaunchesInWellUnderTwoMegabytes() {
        List<LaunchTable.Row> rows = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            rows.add(launch(i));
        }
        LaunchTable.Encoded e = LaunchTable.encode(rows);
        long bytes = e.rows().length() + e.texts().stream().mapToLong(t -> t.length() + 20).sum();
        assertThat(bytes).as("characters for 5,000 launches").isLessThan(1_500_000);
    }

    @Test
    void shouldSayWhichStoredLaunchIsCorrupt() {
        LaunchTable.Encoded e = LaunchTable.encode(List.of(launch(0)));
        assertThatThrownBy(() -> LaunchTable.decode(e.texts(), e.rows() + "0 0 7\n"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("stored launch 2 does not parse");
    }
}
