package dev.schedpolicy.engine.agent;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A long build's launches by stage, in build order, and a stage's launches a page at a time. */
class StageGroupsTest {
    private static List<LaunchTable.Row> build(final int launches) {
        List<LaunchTable.Row> rows = new ArrayList<>();
        for (int i = 0; i < launches; i++) {
            rows.add(LaunchTableTest.launch(i));
        }
        return rows;
    }

    @Test
    void shouldSumEachStageInTheOrderTheBuildReachedIt() {
        List<StageGroups.Group> groups = StageGroups.of(build(5000));
        assertThat(groups).extracting(StageGroups.Group::stage).containsExactly("Build 0", "Build 1", "Build 2", "Build 3",
                "Build 4", "Build 5", "Build 6", "Build 7", "Build 8", "Build 9");
        StageGroups.Group first = groups.get(0);
        assertThat(first.launches()).isEqualTo(500);
        // launch i waited 45,678,901 + i ns beside 987,654,321 + i ns of CPU
        long wait = 500L * 45_678_901L + 499L * 500 / 2;
        assertThat(first.waitNanos()).isEqualTo(wait);
        assertThat(first.runnableNanos()).isEqualTo(wait + 500L * 987_654_321L + 499L * 500 / 2);
        assertThat(first.waitSharePercent()).isEqualTo(4.4);
    }

    @Test
    void shouldPageAStagesLaunches() {
        List<LaunchTable.Row> rows = build(1200);
        assertThat(StageGroups.pages(rows, StageGroups::stageOf, "Build 1")).isEqualTo(5);
        assertThat(StageGroups.page(rows, StageGroups::stageOf, "Build 1", 5)).hasSize(100)
                .first().satisfies(r -> assertThat(r.step()).isEqualTo("sh 'make target-900'"));
        assertThat(StageGroups.page(rows, StageGroups::stageOf, "Build 2", 2)).hasSize(100);
        assertThat(StageGroups.page(rows, StageGroups::stageOf, "Build 2", 3)).isEmpty();
        assertThat(StageGroups.pages(rows, StageGroups::stageOf, null)).isEqualTo(12);
        assertThat(StageGroups.pages(rows, StageGroups::stageOf, "no such stage")).isEqualTo(1);
    }

    @Test
    void shouldNotShowAWaitShareForAStageWithoutMeasuredWait() {
        assertThat(new StageGroups.Group("", 3, 0, 0, 1000).waitSharePercent()).isEqualTo(-1);
    }
}
