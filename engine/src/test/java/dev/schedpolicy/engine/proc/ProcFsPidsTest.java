package dev.schedpolicy.engine.proc;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class ProcFsPidsTest {
    @TempDir
    Path root;

    @Test
    void shouldListOnlyTheNumericEntriesOfProc() throws Exception {
        for (String name : new String[] {"1", "42", "self", "sys", "12a", "pressure"}) {
            Files.createDirectories(root.resolve(name));
        }
        assertThat(new ProcFs(root).pids()).containsExactlyInAnyOrder(1L, 42L);
    }

    @Test
    void shouldAnswerNothingWhenProcCannotBeListed() {
        assertThat(new ProcFs(root.resolve("missing")).pids()).isEmpty();
    }
}
