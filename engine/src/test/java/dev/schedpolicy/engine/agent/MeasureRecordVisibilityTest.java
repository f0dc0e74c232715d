package dev.schedpolicy.engine.agent;

import dev.schedpolicy.engine.measure.Neighbour;
import dev.schedpolicy.engine.measure.StepMeasure;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.util.List;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/** What a reader may see of a launch's neighbours: the builds they may read by name, the others as "another build". */
class MeasureRecordVisibilityTest {
    private static MeasureRecord record() {
        StepMeasure m = new StepMeasure("blue #1 › sh (no policy)", "test", 2_000_000_000L, OptionalLong.empty(), 1_000_000_000L,
                1_000_000_000L, OptionalLong.empty(), List.of(new Neighbour("red #1 › sh (no policy)", "red", 490_000_000L),
                        new Neighbour("blue #2 › sh (idle)", "blue", 300_000_000L),
                        new Neighbour("a launch outside a build (no policy)", "", 110_000_000L)),
                100_000_000L, List.of());
        return new MeasureRecord("id", m, true);
    }

    @Test
    void shouldNameOnlyTheNeighboursWhoseBuildsTheReaderMayRead() {
        assertThat(record().neighboursFor("blue"::equals)).extracting(MeasureRecord.Shown::label, MeasureRecord.Shown::waitNanos).containsExactly(
                tuple(MeasureRecord.ANOTHER_BUILD, 490_000_000L),
                tuple("blue #2 › sh (idle)", 300_000_000L),
                tuple("a launch outside a build (no policy)", 110_000_000L));
    }

    @Test
    void shouldNameEveryNeighbourForAReaderOfAllTheirBuilds() {
        assertThat(record().neighboursFor(owner -> true)).extracting(MeasureRecord.Shown::label).containsExactly(
                "red #1 › sh (no policy)", "blue #2 › sh (idle)", "a launch outside a build (no policy)");
    }

    @Test
    void shouldKeepTheOwnersThroughTheBuildsLaunchTable() {
        LaunchTable.Encoded stored = LaunchTable.encode(List.of(new LaunchTable.Row("", "normal", "", "", "sh", record())));
        MeasureRecord read = LaunchTable.decode(stored.texts(), stored.rows()).get(0).record();
        assertThat(read.neighboursFor("blue"::equals)).extracting(MeasureRecord.Shown::label).containsExactly(
                MeasureRecord.ANOTHER_BUILD, "blue #2 › sh (idle)", "a launch outside a build (no policy)");
        // a line written before owners were kept ends after the neighbours' waits
        String before = stored.rows().strip().replaceAll("( [0-9]+){3}$", "");
        MeasureRecord old = LaunchTable.decode(stored.texts(), before).get(0).record();
        assertThat(old.neighboursFor(owner -> true)).extracting(MeasureRecord.Shown::label).containsOnly(MeasureRecord.ANOTHER_BUILD);
        assertThat(old.neighbourLabels()).hasSize(3);
    }

    @Test
    void shouldHideTheNeighboursOfARecordStoredBeforeOwnersWereKept() throws Exception {
        MeasureRecord old = record();
        Field owners = MeasureRecord.class.getDeclaredField("neighbourOwners");
        owners.setAccessible(true);
        owners.set(old, null); // as XStream reads a record stored without the field
        assertThat(old.neighboursFor(owner -> true)).extracting(MeasureRecord.Shown::label, MeasureRecord.Shown::waitNanos).containsExactly(
                tuple(MeasureRecord.ANOTHER_BUILD, 490_000_000L), tuple(MeasureRecord.ANOTHER_BUILD, 300_000_000L),
                tuple(MeasureRecord.ANOTHER_BUILD, 110_000_000L));
    }
}
