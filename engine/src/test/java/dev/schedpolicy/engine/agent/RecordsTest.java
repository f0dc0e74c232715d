package dev.schedpolicy.engine.agent;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class RecordsTest {
    private static LaunchRecord launch(final long pid, final List<String> mismatches) {
        return new LaunchRecord("hs-1-" + pid, "idle", pid, "parked child", "idle", 0, "idle", "/", "0-1", mismatches,
                List.of("cgroup idle skipped"));
    }

    @SuppressWarnings("unchecked")
    private static <T> T roundTrip(final T value) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return (T) in.readObject();
        }
    }

    @Test
    void shouldCountVerifiedLaunchesAndCollectTheirWarningsOnce() {
        BlockRecord b = new BlockRecord("k", "withSchedPolicy", "agent-1", "idle", "idle", List.of())
                .withLaunch(launch(10, List.of()))
                .withLaunch(launch(11, List.of("nice 5 instead of 19")));
        assertThat(b.launches()).hasSize(2);
        assertThat(b.verifiedLaunches()).isEqualTo(1);
        assertThat(b.warnings()).containsExactly("cgroup idle skipped");
        assertThat(b.isFinished()).isFalse();
        assertThat(b.summary()).isEqualTo("idle on agent-1: 1 of 2 launches verified (running)");
        assertThat(b.launches().get(1).describe()).contains("NOT verified (nice 5 instead of 19)");
    }

    @Test
    void shouldSumUsageAndDescribeThrottling() {
        UsageRecord u = new UsageRecord(1, 1_500_000, 40, 10, 250_000).plus(new UsageRecord(1, 500_000, 10, 0, 0));
        assertThat(u.groups()).isEqualTo(2);
        assertThat(u.throttledPercent()).isEqualTo(20.0);
        assertThat(u.describe()).isEqualTo("2.000 s CPU in 2 cgroups, throttled in 10 of 50 periods (20.0%, 0.250 s)");
        assertThat(UsageRecord.NONE.describe()).isEqualTo("no cgroup used");
    }

    @Test
    void shouldSurviveJavaSerializationAsRemotingUsesIt() throws Exception {
        BlockRecord b = new BlockRecord("k", "wrapper", "built-in", "batch", "batch+nice19", List.of("w"))
                .withLaunch(launch(12, List.of()))
                .finished(new UsageRecord(1, 10, 1, 0, 0));
        BlockRecord copy = roundTrip(b);
        assertThat(copy.summary()).isEqualTo(b.summary());
        assertThat(copy.launches().get(0).pid()).isEqualTo(12);
        PreparedLaunch p = roundTrip(new PreparedLaunch("hs-1", List.of("/bin/sh", "/tmp/s/shim", "/tmp/s/hs-1")));
        assertThat(p.prefix(List.of("make"))).containsExactly("/bin/sh", "/tmp/s/shim", "/tmp/s/hs-1", "make");
        assertThat(p.prefixMasks(new boolean[] {true})).containsExactly(false, false, false, true);
        assertThat(p.prefixMasks(null)).isNull();
    }
}
