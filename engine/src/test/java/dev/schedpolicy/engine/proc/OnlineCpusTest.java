package dev.schedpolicy.engine.proc;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class OnlineCpusTest {
    @Test
    void shouldReadTheKernelsListSyntax(@TempDir final Path dir) throws Exception {
        Path online = Files.writeString(dir.resolve("online"), "0-3,6\n");
        assertThat(OnlineCpus.read(online)).hasToString("0-3,6");
    }

    @Test
    void shouldFallBackToTheJvmsCountWithoutSysfs(@TempDir final Path dir) {
        int n = Runtime.getRuntime().availableProcessors();
        assertThat(OnlineCpus.read(dir.resolve("missing"))).hasToString(n == 1 ? "0" : "0-" + (n - 1));
    }
}
