package dev.schedpolicy.engine.launch;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class WarningBriefTest {
    @Test
    void shouldKeepWhatHappenedAndLeaveTheWhyAndTheAdviceForTheFullText() {
        String full = "cannot apply nice 5: setpriority(PRIO_PROCESS, 42, 5) failed with EACCES (Permission denied); the"
                + " target belongs to another user, or the change raises priority (realtime, negative nice or leaving idle"
                + " need CAP_SYS_NICE)";
        assertThat(WarningBrief.of(full)).isEqualTo("cannot apply nice 5");
        assertThat(WarningBrief.shortens(full)).isTrue();
        assertThat(WarningBrief.of("the kernel reports nice 10 instead of 5 for child 42 after applying 'nice5+warn'"))
                .isEqualTo("the kernel reports nice 10 instead of 5 for child 42 after applying 'nice5+warn'");
        assertThat(WarningBrief.shortens("a short one")).isFalse();
        assertThat(WarningBrief.of("x".repeat(300))).hasSize(120).endsWith("...");
    }
}
