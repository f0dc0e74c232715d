package dev.schedpolicy.engine.probe;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A JVM killed while it probes (an agent stopped while it probes on connecting) must not leave the trial's scratch
 * process behind: it was a {@code sleep 30}, which ran its 30 s on, in its cgroup, after the JVM was gone (the live
 * suite's fault checks found one in the agent's group). The scratch process now ends when its JVM's pipe closes.
 */
@EnabledOnOs(OS.LINUX)
class TrialScratchITest {
    @TempDir
    Path state;

    private final String marker = "SCHEDPOLICY_TRIAL_MARK=" + UUID.randomUUID();

    @Test
    void shouldLeaveNoScratchProcessWhenItsJvmIsKilledMidTrial() throws Exception {
        for (int i = 0; i < 3; i++) {
            ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                    TrialLoop.class.getName(), state.toString()).redirectError(ProcessBuilder.Redirect.DISCARD);
            pb.environment().put(marker.substring(0, marker.indexOf('=')), marker.substring(marker.indexOf('=') + 1));
            Process jvm = pb.start();
            assertThat(new BufferedReader(new InputStreamReader(jvm.getInputStream(), StandardCharsets.US_ASCII)).readLine())
                    .isEqualTo("LOOPING");
            Thread.sleep(1500 + 500L * i);
            jvm.destroyForcibly();
            assertThat(jvm.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
        List<Long> left = marked();
        while (!left.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(100);
            left = marked();
        }
        List<Long> found = left;
        found.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
        assertThat(found).as("scratch processes of the killed JVMs, 3 s after the kills").isEmpty();
    }

    private List<Long> marked() throws IOException {
        List<Long> pids = new ArrayList<>();
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            for (Path p : procs.filter(d -> d.getFileName().toString().matches("\\d+")).toList()) {
                try {
                    if (new String(Files.readAllBytes(p.resolve("environ")), StandardCharsets.ISO_8859_1).contains(marker)) {
                        pids.add(Long.parseLong(p.getFileName().toString()));
                    }
                } catch (IOException gone) {
                    // exited while we looked, or not ours to read
                }
            }
        }
        return pids;
    }
}
