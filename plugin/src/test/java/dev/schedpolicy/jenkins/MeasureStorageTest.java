package dev.schedpolicy.jenkins;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedpolicy.engine.agent.MeasureRecord;
import dev.schedpolicy.engine.measure.Neighbour;
import dev.schedpolicy.engine.measure.StepMeasure;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The build's file of measured launches (schedpolicy-measure.xml): bounded for a long build, older files still read. */
class MeasureStorageTest {
    private static final String NOTE = "without an accounting group, processes that leave the step's process tree (setsid,"
            + " daemonised, or orphaned when their parent ends) are not counted, and CPU is what the samples saw";

    @TempDir
    Path dir;

    /** A launch of a long build as an agent without an accounting group records it (the longest note), 8 beside it. */
    static MeasureResult.Launch launch(final int i) {
        List<Neighbour> beside = new ArrayList<>();
        for (int n = 0; n < 8; n++) {
            beside.add(new Neighbour("team-" + n + "/service-" + n + "/main #" + (1200 + n)
                    + " › stage 'Integration tests' › sh (no policy)", 9_000_000L - n * 1_000_000L));
        }
        StepMeasure m = new StepMeasure("my-org/my-repo/main #4711 › stage 'Build " + i / 500 + "' › sh (no policy)",
                "the process tree from /proc (no accounting group: cpuacct is mounted with cpu) + per-task"
                        + " /proc/TID/schedstat, sampled 12 times (every 100 ms on average)",
                1_234_567_890L + i, OptionalLong.empty(), 987_654_321L + i, 45_678_901L + i, OptionalLong.empty(), beside,
                3_000_000L, List.of(NOTE));
        return new MeasureResult.Launch("linux-agent-" + i % 3, "normal", new MeasureRecord("hs" + (1_000_000_000L + i), m,
                true), "Build " + i / 500, "", "sh 'make target-" + i + "'");
    }

    @Test
    void shouldKeepFiveThousandLaunchesUnderTwoMegabytesAndReadThemBack() throws Exception {
        MeasureResult result = new MeasureResult();
        for (int i = 0; i < 5000; i++) {
            result.add(launch(i));
        }
        result.missing("3 launches on linux-agent-1 (the first p #1 › sh): evicted unread");
        Path file = dir.resolve("schedpolicy-measure.xml");
        new MeasureBuildAction.MeasureXmlStream().write(file, result);
        assertThat(Files.size(file)).as("bytes of schedpolicy-measure.xml for 5,000 launches").isLessThan(2_000_000);
        MeasureResult back = new MeasureBuildAction.MeasureXmlStream().read(file);
        assertThat(back.getMissing()).containsExactly("3 launches on linux-agent-1 (the first p #1 › sh): evicted unread");
        assertThat(back.getLaunches()).hasSize(5000);
        MeasureResult.Launch last = back.getLaunches().get(4999);
        assertThat(last.getNode()).isEqualTo("linux-agent-1");
        assertThat(last.where().step().text()).isEqualTo("sh 'make target-4999'");
        assertThat(last.getRecord().toString()).isEqualTo(launch(4999).getRecord().toString());
    }

    @Test
    void shouldReadAFileWrittenBeforeLaunchesWereKeptAsATable() throws Exception {
        Path file = dir.resolve("schedpolicy-measure.xml");
        Files.writeString(file, """
                <?xml version='1.1' encoding='UTF-8'?>
                <dev.schedpolicy.jenkins.MeasureResult>
                  <launches>
                    <dev.schedpolicy.jenkins.MeasureResult_-Launch>
                      <node>agent-1</node>
                      <policy>idle</policy>
                      <record>
                        <id>hs123</id>
                        <label>p #1 › sh (idle)</label>
                        <source>a cgroup v1 cpuacct group</source>
                        <wallNanos>2000000000</wallNanos>
                        <cpuNanos>1000000000</cpuNanos>
                        <sampledCpuNanos>900000000</sampledCpuNanos>
                        <waitNanos>100000000</waitNanos>
                        <coveragePermille>900</coveragePermille>
                        <neighbourLabels>
                          <string>q #2 › sh (no policy)</string>
                        </neighbourLabels>
                        <neighbourWaitNanos>
                          <long>60000000</long>
                        </neighbourWaitNanos>
                        <otherWaitNanos>40000000</otherWaitNanos>
                        <notes/>
                        <lines>
                          <string>waited 10.0% of its runnable time for a CPU</string>
                        </lines>
                        <ended>true</ended>
                      </record>
                    </dev.schedpolicy.jenkins.MeasureResult_-Launch>
                  </launches>
                  <missing/>
                </dev.schedpolicy.jenkins.MeasureResult>
                """);
        MeasureResult back = new MeasureBuildAction.MeasureXmlStream().read(file);
        assertThat(back.getMissing()).isEmpty();
        assertThat(back.getLaunches()).singleElement().satisfies(l -> {
            assertThat(l.getNode()).isEqualTo("agent-1");
            assertThat(l.getRecord().neighbourLabels()).containsExactly("q #2 › sh (no policy)");
            assertThat(l.getRecord().moreNeighbours()).isZero();
            assertThat(l.where().stage()).isEmpty();
        });
    }
}
