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
    void shouldOnlyAdviseWhenIoPriorityHasNoEffect() {
        ProbeReport none = report(Map.of("nvme0n1", "none"), new Capability("io-idle", true, "ok"));
        assertThat(none.problemsFor(Policy.parse("io-idle"))).isEmpty();
        assertThat(none.advisoriesFor(Policy.parse("io-idle"))).singleElement().asString()
                .contains("no effect").contains("bfq and mq-deadline").contains("nvme0n1=none");
        ProbeReport bfq = report(Map.of("sda", "bfq"), new Capability("io-idle", true, "ok"));
        assertThat(bfq.advisoriesFor(Policy.parse("io-idle"))).isEmpty();
    }
}
