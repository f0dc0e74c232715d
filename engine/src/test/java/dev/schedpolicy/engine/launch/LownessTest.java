package dev.schedpolicy.engine.launch;

import dev.schedpolicy.engine.policy.Policy;
import dev.schedpolicy.engine.proc.TaskStat;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/** A running command may lower itself further; only one that raised itself reads back above the policy. */
class LownessTest {
    private static final String GROUP = "/schedpolicy-1-0";

    @ParameterizedTest(name = "asked {0}, read class {1} nice {2} io {3} cpus {4} cgroup {5} -> raised: {6}")
    @CsvSource({
        "nice5,         0, 10, 0,     0-1, /,                         false",
        "nice5,         0, 5,  0,     0-1, /,                         false",
        "nice5,         0, 4,  0,     0-1, /,                         true",
        "nice5,         5, 0,  0,     0-1, /,                         false",
        "io-be5,        0, 0,  24576, 0-1, /,                         false",
        "io-be5,        0, 0,  16391, 0-1, /,                         false",
        "io-be5,        0, 0,  16388, 0-1, /,                         true",
        "io-be5,        0, 19, 0,     0-1, /,                         false",
        "io-idle,       0, 19, 16391, 0-1, /,                         true",
        "batch,         5, 0,  0,     0-1, /,                         false",
        "batch,         0, 0,  0,     0-1, /,                         true",
        "idle,          3, 0,  0,     0-1, /,                         true",
        "cpus=0-1,      0, 0,  0,     0,   /,                         false",
        "cpus=0,        0, 0,  0,     0-1, /,                         true",
        "quota50,       0, 0,  0,     0-1, /schedpolicy-1-0,          false",
        "quota50,       0, 0,  0,     0-1, /schedpolicy-1-0/inner,    false",
        "quota50,       0, 0,  0,     0-1, /schedpolicy-1-00,         true",
        "quota50,       0, 0,  0,     0-1, /,                         true",
    })
    void shouldAcceptAnythingAtLeastAsLowAsAsked(final String asked, final int readClass, final int readNice, final int readIo,
            final String cpus, final String cgroup, final boolean raised) {
        TaskStat stat = new TaskStat(42, "cmd", 'S', 1, 0, 0, readNice, 1, readClass, 0, 0);
        Policy policy = Policy.parse(asked);

        var found = new Lowness(stat, readIo, cpus, cgroup).raisedAbove(policy, policy.needsCgroup() ? GROUP : null);

        assertThat(found.isEmpty()).as(found.toString()).isNotEqualTo(raised);
    }
}
