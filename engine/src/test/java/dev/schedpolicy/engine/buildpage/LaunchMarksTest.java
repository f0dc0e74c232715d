package dev.schedpolicy.engine.buildpage;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class LaunchMarksTest {
    @Test
    void shouldLetOnlyTheFirstLauncherClaimALaunch() {
        Object launch = new Object();
        assertThat(LaunchMarks.claim(launch)).isTrue();
        try {
            assertThat(LaunchMarks.claim(launch)).isFalse();
        } finally {
            LaunchMarks.release(launch);
        }
        assertThat(LaunchMarks.claim(launch)).isTrue();
        LaunchMarks.release(launch);
    }

    @Test
    void shouldNotTreatAMarkerInTheEnvironmentAsAClaim() {
        // withEnv(['SCHEDPOLICY_LAUNCH=x']) or a build parameter: the launch is a fresh object, unclaimed
        Object launch = new Object();
        String[] envs = {"SCHEDPOLICY_LAUNCH=x"};
        assertThat(LaunchMarks.claim(launch)).isTrue();
        LaunchMarks.release(launch);
        assertThat(LaunchMarks.withMarker(envs, "id-1")).containsExactly("SCHEDPOLICY_LAUNCH=id-1");
    }

    @Test
    void shouldReplaceAForgedOrInheritedMarkerAndKeepTheRest() {
        assertThat(LaunchMarks.withMarker(new String[] {"A=1", "SCHEDPOLICY_LAUNCH=forged", "B=2"}, "id-2"))
                .containsExactly("A=1", "B=2", "SCHEDPOLICY_LAUNCH=id-2");
        assertThat(LaunchMarks.withMarker(Map.of("SCHEDPOLICY_LAUNCH", "inherited", "A", "1"), "id-3"))
                .containsEntry("SCHEDPOLICY_LAUNCH", "id-3").containsEntry("A", "1");
        assertThat(LaunchMarks.withMarker((String[]) null, "id-4")).containsExactly("SCHEDPOLICY_LAUNCH=id-4");
    }
}
