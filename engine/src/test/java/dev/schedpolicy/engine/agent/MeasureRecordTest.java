package dev.schedpolicy.engine.agent;

import dev.schedpolicy.engine.measure.Neighbour;
import dev.schedpolicy.engine.measure.StepMeasure;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

/** A launch's record stays the same size however many launches ran beside it: the build keeps thousands of them. */
class MeasureRecordTest {
    private static StepMeasure beside(final int neighbours) {
        List<Neighbour> n = new ArrayList<>();
        for (int i = 0; i < neighbours; i++) {
            // most first, as the meter sorts them
            n.add(new Neighbour("compile #" + i + " › stage 'Build' › sh (no policy)", 1_000_000L * (neighbours - i)));
        }
        long wait = n.stream().mapToLong(Neighbour::waitNanos).sum() + 7_000_000L;
        return new StepMeasure("test #7 › stage 'Test' › sh (no policy)", "a cgroup v1 cpuacct group", 2_000_000_000L,
                OptionalLong.of(900_000_000L), 900_000_000L, wait, OptionalLong.empty(), n, 7_000_000L, List.of());
    }

    private static int serializedBytes(final Object o) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(o);
        }
        return bytes.size();
    }

    @Test
    void shouldNameTheFiveNeighboursWithTheMostWaitAndSumTheRest() {
        MeasureRecord r = new MeasureRecord("hs-1", beside(50), true);
        assertThat(r.neighbourLabels()).hasSize(MeasureRecord.MAX_NEIGHBOURS).first().asString().startsWith("compile #0 ");
        assertThat(r.moreNeighbours()).isEqualTo(45);
        // 45 + 44 + ... + 1 ms
        assertThat(r.moreNeighbourWaitNanos()).isEqualTo(1_035_000_000L);
        assertThat(r.neighbourWaitNanos().stream().mapToLong(Long::longValue).sum() + r.moreNeighbourWaitNanos()
                + r.otherWaitNanos()).as("the whole wait is still apportioned").isEqualTo(r.waitNanos());
    }

    @Test
    void shouldKeepTheSameSizeBesideFiveHundredLaunchesAsBesideFive() throws Exception {
        int five = serializedBytes(new MeasureRecord("hs-1", beside(5), true));
        int many = serializedBytes(new MeasureRecord("hs-1", beside(500), true));
        assertThat(many).as("bytes beside 500 launches vs %d beside 5", five).isLessThan(five + 100);
        assertThat(five).as("each neighbour stored once: no second copy of the figures in words").isLessThan(1_200);
    }

    @Test
    void shouldNameNoMoreNeighboursWhenFewRanBeside() {
        MeasureRecord r = new MeasureRecord("hs-1", beside(2), true);
        assertThat(r.neighbourLabels()).hasSize(2);
        assertThat(r.moreNeighbours()).isZero();
        assertThat(r.moreNeighbourWaitNanos()).isZero();
    }
}
