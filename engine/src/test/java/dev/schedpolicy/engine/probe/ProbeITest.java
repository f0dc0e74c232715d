package dev.schedpolicy.engine.probe;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** The probe on this machine (root, cgroup v1 cpu writable): everything is tried and nothing is left behind. */
@EnabledOnOs(OS.LINUX)
@Tag("kernel")
class ProbeITest {
    @Test
    void shouldTryEveryPartForRealAndCleanUp() throws IOException {
        ProbeReport r = Probe.system(Optional.empty()).run();
        assertThat(r.capabilities()).extracting(Capability::name)
                .containsExactly("nice", "io-be", "io-idle", "affinity", "batch", "idle", "quota", "weight", "cpu-idle");
        // lowering priority is always allowed, so these must work for any user
        assertThat(r.capabilities().subList(0, 6)).allMatch(Capability::usable);
        assertThat(r.cpus()).isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(r.scope().taskGroup()).isNotBlank();
        Path cpu = Path.of("/sys/fs/cgroup/cpu");
        if (Files.isDirectory(cpu)) {
            assertThat(r.capability("quota").orElseThrow().usable()).as(r.capability("quota").toString()).isTrue();
            try (Stream<Path> left = Files.list(cpu)) {
                assertThat(left.map(p -> p.getFileName().toString())
                        .filter(n -> n.startsWith("schedpolicy-" + ProcessHandle.current().pid() + "-"))).isEmpty();
            }
        }
        assertThat(ProcessHandle.current().children().filter(ProcessHandle::isAlive)
                .filter(h -> h.info().command().orElse("").endsWith("sleep"))).isEmpty();
    }
}
