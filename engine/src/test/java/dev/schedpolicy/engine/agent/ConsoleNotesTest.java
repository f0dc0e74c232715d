package dev.schedpolicy.engine.agent;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ConsoleNotesTest {
    private static final String FULL = "scheduling class idle is applied but has no effect against the 18 processes in other task"
            + " groups than autogroup /autogroup-80 in cgroup /: the kernel weighs it only against the 12 processes in that group;"
            + " cpu-idle, weight or quota reach the other groups";

    @Test
    void shouldSayWhatRunsAndWhatWasRequestedWhenTheyDiffer() {
        assertThat(ConsoleNotes.block(new BlockStart("k", "idle", "idle", List.of(), null))).isEqualTo("launches run under idle");
        assertThat(ConsoleNotes.block(new BlockStart("k", "normal", "idle", List.of(), null)))
                .isEqualTo("launches run under idle (requested normal)");
    }

    @Test
    void shouldPutWhatThePolicyCannotReachInOneLineThatPointsToTheDetails() {
        BlockStart start = new BlockStart("k", "idle", "idle", List.of(), null, List.of(FULL),
                "idle yields only to processes in its own session (this agent's builds), not to the 18 in other task groups");
        assertThat(ConsoleNotes.reach(start, "built-in", "http://j/job/p/1/#schedpolicy-blocks", "http://j/manage/schedpolicy-fleet/"))
                .hasValue("on built-in: idle yields only to processes in its own session (this agent's builds), not to the 18 in"
                        + " other task groups. Details: http://j/job/p/1/#schedpolicy-blocks (this build) and"
                        + " http://j/manage/schedpolicy-fleet/ (this agent)");
        assertThat(start.warnings()).as("the full words are not a per-block console warning").isEmpty();
        assertThat(BlockRecord.started("withSchedPolicy", "built-in", start).warnings()).as("the build page keeps them whole")
                .containsExactly(FULL);
    }

    @Test
    void shouldSayNothingWhenThePolicyReachesEverything() {
        BlockStart start = new BlockStart("k", "cpu-idle", "cpu-idle", List.of(), null);
        assertThat(ConsoleNotes.reach(start, "a", "b", "c")).isEmpty();
    }
}
