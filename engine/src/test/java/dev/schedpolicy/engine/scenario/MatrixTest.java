package dev.schedpolicy.engine.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The matrix's limits hold for every front end because they live in its constructor. */
class MatrixTest {
    private static final List<String> POLICIES = List.of("default", "idle");

    @Test
    void shouldRejectALoadAbove64() {
        assertThatThrownBy(() -> new Matrix(POLICIES, List.of(1.0, 65.0), 3, 1000))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("load 65.0 is out of range")
                .hasMessageContaining("from 0 to 64");
    }

    @Test
    void shouldRejectNegativeAndNotANumberLoads() {
        assertThatThrownBy(() -> new Matrix(POLICIES, List.of(-0.5), 3, 1000)).hasMessageContaining("out of range");
        assertThatThrownBy(() -> new Matrix(POLICIES, List.of(Double.NaN), 3, 1000)).hasMessageContaining("out of range");
    }

    @Test
    void shouldRejectZeroRepetitionsAndAnEmptyOrRepeatedAxis() {
        assertThatThrownBy(() -> new Matrix(POLICIES, List.of(1.0), 0, 1000)).hasMessage("repetitions must be 1..100, not 0");
        assertThatThrownBy(() -> new Matrix(List.of(), List.of(1.0), 3, 1000)).hasMessageContaining("at least one policy");
        assertThatThrownBy(() -> new Matrix(POLICIES, List.of(), 3, 1000)).hasMessageContaining("at least one load");
        assertThatThrownBy(() -> new Matrix(POLICIES, List.of(1.0, 1.0), 3, 1000)).hasMessage("load 1.0 is listed twice");
        assertThatThrownBy(() -> new Matrix(List.of("idle", "idle"), List.of(1.0), 3, 1000))
                .hasMessageContaining("policies must not repeat");
    }

    @Test
    void shouldKeepDurationAndSlowdownInRange() {
        assertThatThrownBy(() -> new Matrix(POLICIES, List.of(1.0), 3, 99)).hasMessageContaining("duration must be 100..600000 ms");
        assertThatThrownBy(() -> new Matrix(POLICIES, List.of(1.0), 3, 1000, 1)).hasMessageContaining("max-slowdown must be 2..100");
    }

    @Test
    void shouldCheckACustomisedMatrixLikeAnyOther() {
        Matrix m = new Matrix(POLICIES, List.of(1.0, 2.0), 3, 1000, 5);
        assertThat(m.customised(null, List.of(4.0), null, null)).isEqualTo(new Matrix(POLICIES, List.of(4.0), 3, 1000, 5));
        assertThatThrownBy(() -> m.customised(null, List.of(100.0), null, null)).hasMessageContaining("out of range");
        assertThatThrownBy(() -> m.customised(null, null, 101, null)).hasMessageContaining("repetitions must be 1..100");
    }

    @Test
    void shouldParseACommaSeparatedLoadListOrSayWhatIsAllowed() {
        assertThat(Matrix.parseLoads("0, 1,2.5")).containsExactly(0.0, 1.0, 2.5);
        assertThatThrownBy(() -> Matrix.parseLoads("1,x")).hasMessageContaining("'x' is not a number")
                .hasMessageContaining("e.g. 0,1,2,4");
        assertThatThrownBy(() -> Matrix.parseLoads("1,,2")).hasMessageContaining("'' is not a number");
    }

    @Test
    void shouldUseTheQuickPresetUnlessFullOrAMatrixIsAsked() {
        assertThat(Matrix.Preset.resolve(false, false, false)).isEqualTo(Matrix.Preset.QUICK);
        assertThat(Matrix.Preset.resolve(true, false, true)).isEqualTo(Matrix.Preset.QUICK);
        assertThat(Matrix.Preset.resolve(false, true, false)).isEqualTo(Matrix.Preset.FULL);
        assertThat(Matrix.Preset.resolve(false, false, true)).isEqualTo(Matrix.Preset.FULL);
        assertThatThrownBy(() -> Matrix.Preset.resolve(true, true, false)).hasMessageContaining("exclude each other");
    }

    @Test
    void shouldDeriveAQuickPresetFromTheStartOfTheFullMatrix() {
        Matrix full = new Matrix(List.of("a", "b", "c", "d", "e", "f", "g"), List.of(0.0, 1.0, 2.0, 4.0), 5, 2000, 7);
        assertThat(Matrix.quickFrom(full)).isEqualTo(new Matrix(List.of("a", "b", "c", "d", "e", "f"),
                List.of(0.0, 1.0, 2.0), 3, 1000, 7));
    }
}
