package dev.schedpolicy.engine.agent;

import dev.schedpolicy.engine.launch.LaunchConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An agent whose state directory cannot be made or written (a read-only mount, a full disk; here a path under a
 * regular file, which fails the same mkdir as root too): the block is refused in words, as any other reason a
 * policy cannot be applied. It used to escape as an UncheckedIOException, which the live Jenkins printed as a
 * remoting stack trace (live suite 93-fault-unwritable).
 */
@EnabledOnOs(OS.LINUX)
class UnusableStateDirITest {
    @TempDir
    Path work;

    @AfterEach
    void tearDown() {
        SchedPolicyAgent.useRegistry(null);
    }

    @Test
    void shouldRefuseTheBlockInWordsWhenTheStateDirectoryCannotBeMade() throws Exception {
        Path file = Files.writeString(work.resolve("not-a-directory"), "x");
        Path state = file.resolve("schedpolicy");
        SchedPolicyAgent.useRegistry(new HandshakeRegistry(LaunchConfig.defaults().withStateDir(state), Path.of("/proc"),
                Duration.ofHours(1)));

        BlockStart start = SchedPolicyAgent.startBlock(LaunchRequest.of("unusable", "batch+nice19"));

        assertThat(start.failure()).hasValueSatisfying(f -> assertThat(f)
                .contains("cannot prepare state directory " + state)
                .contains("XDG_RUNTIME_DIR"));
        assertThat(SchedPolicyAgent.registry().pendingCount()).isZero();
    }
}
