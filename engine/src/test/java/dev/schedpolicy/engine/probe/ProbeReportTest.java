package dev.schedpolicy.engine.probe;

import dev.schedpolicy.engine.policy.Policy;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ProbeReportTest {
    private static ProbeReport report(final Map<String, String> io, final Capability... caps) {
        return new ProbeReport(1, "6.18", 2, 1000, List.of(caps), "v2", "v2 at /sys/fs/cgroup", "/sys/fs/cgroup/user", false, io,
                true, new TaskGroupScope("cgroup /user", 3, 40, List.of(), List.of()));
    }

    @Test
    void shouldNameEveryPartThisMachineCannotApply() {
        ProbeReport r = report(Map.of("sda", "mq-deadline"), new Capability("idle", true, "ok"),
                new Capability("quota", false, "no writable parent for cpu cgroups"), new Capability("affinity", true, "ok"));
        assertThat(r.problemsFor(Policy.parse("idle+quota50+cpus=0-3"))).containsExactly(
                "CPU list 0-3 names CPUs this machine does not have (it has 0-1)",
                "CPU quota 50% cannot be applied here: no writable parent for cpu cgroups");
        assertThat(r.problemsFor(Policy.parse("idle+cpus=1"))).isEmpty();
    }

    @Test
    void shouldAdviseThatPerTaskPartsDoNotReachOtherTaskGroups() {
        ProbeReport r = report(Map.of("sda", "bfq"), new Capability("idle", true, "ok"));
        assertThat(r.advisoriesFor(Policy.parse("idle+nice5"))).singleElement().asString()
                .startsWith("scheduling class idle and nice 5 is applied but has no effect against the 40 processes in other"
                        + " task groups than cgroup /user")
                .contains("only against the 3 processes").contains("cpu-idle, weight or quota").doesNotContain("6.11");
        assertThat(r.advisoriesFor(Policy.parse("quota50"))).isEmpty();
        ProbeReport alone = new ProbeReport(1, "6.18", 2, 0, List.of(), "v2", "", "", true, Map.of(), false,
                new TaskGroupScope("cgroup /", 30, 0, List.of(), List.of()));
        assertThat(alone.advisoriesFor(Policy.parse("idle"))).isEmpty();
    }

    @Test
    void shouldMentionCrossGroupWakeupPreemptionOfIdleTasksBeforeLinux611Only() {
        ProbeReport old = new ProbeReport(1, "6.1.0-56-amd64", 2, 0, List.of(), "v2", "", "", true, Map.of(), false,
                new TaskGroupScope("cgroup /a", 1, 5, List.of(), List.of()));
        assertThat(old.advisoriesFor(Policy.parse("idle"))).singleElement().asString().contains("before Linux 6.11");
        assertThat(old.advisoriesFor(Policy.parse("nice19"))).singleElement().asString().doesNotContain("6.11");
        assertThat(ProbeReport.releaseAtLeast("5.10.0-46-amd64", 6, 11)).isFalse();
        assertThat(ProbeReport.releaseAtLeast("6.10.3", 6, 11)).isFalse();
        assertThat(ProbeReport.releaseAtLeast("6.11.0", 6, 11)).isTrue();
        assertThat(ProbeReport.releaseAtLeast("7.3.4+deb13-amd64", 6, 11)).isTrue();
        assertThat(ProbeReport.releaseAtLeast("10.1", 6, 11)).isTrue();
    }

    @Test
    void shouldOnlyAdviseWhenIoPriorityHasNoEffect() {
        ProbeReport none = report(Map.of("nvme0n1", "none"), new Capability("io-idle", true, "ok"));
        assertThat(none.problemsFor(Policy.parse("io-idle"))).isEmpty();
        assertThat(none.advisoriesFor(Policy.parse("io-idle"))).singleElement().asString()
                .contains("no effect").contains("bfq and mq-deadline").contains("nvme0n1=none");
        ProbeReport bfq = report(Map.of("sda", "bfq"), new Capability("io-idle", true, "ok"));
        assertThat(bfq.advisoriesFor(Policy.parse("io-idle"))).isEmpty();
    }

    @Test
    void shouldSayWhatThePolicyCannotReachInOneShortClause() {
        ProbeReport r = report(Map.of("nvme0n1", "none"), new Capability("idle", true, "ok"));
        assertThat(r.reachBrief(Policy.parse("idle+nice5+io-idle"))).hasValue("idle and nice 5 yield only to processes in its own"
                + " cpu cgroup (this agent's builds), not to the 40 in other task groups; I/O priority idle has no effect on these"
                + " disks' I/O schedulers");
        ProbeReport autogroup = new ProbeReport(1, "6.18", 2, 0, List.of(), "v1", "", "", true, Map.of("sda", "bfq"), true,
                new TaskGroupScope("autogroup /autogroup-80 in cgroup /", 12, 18, List.of(), List.of()));
        assertThat(autogroup.reachBrief(Policy.parse("idle"))).hasValueSatisfying(b -> assertThat(b)
                .isEqualTo("idle yields only to processes in its own session (this agent's builds), not to the 18 in other task groups")
                .hasSizeLessThan(120));
        assertThat(autogroup.reachBrief(Policy.parse("cpu-idle"))).isEmpty();
        assertThat(autogroup.reachBrief(Policy.parse("io-idle"))).isEmpty();
    }
}
