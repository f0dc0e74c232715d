package dev.schedpolicy.engine.proc;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The exec marker is found as a whole entry of the environment a process started with, and only within the bound. */
class ProcFsEnvironTest {
    @TempDir
    Path root;

    private ProcFs proc(final long pid, final String environ) throws IOException {
        Files.createDirectories(root.resolve(Long.toString(pid)));
        Files.write(root.resolve(pid + "/environ"), environ.getBytes(StandardCharsets.UTF_8));
        return new ProcFs(root);
    }

    @Test
    void shouldFindTheEntryWholeAnywhereInTheEnvironment() throws IOException {
        assertThat(proc(1, "PATH=/bin\0M=abc\0HOME=/\0").environHas(1, "M=abc", 1024)).isEqualTo(ProcFs.EnvironEntry.PRESENT);
        assertThat(proc(2, "M=abc\0").environHas(2, "M=abc", 1024)).isEqualTo(ProcFs.EnvironEntry.PRESENT);
    }

    @Test
    void shouldNotTakeAnotherValueOrNameForTheEntry() throws IOException {
        ProcFs p = proc(3, "M=abcd\0XM=abc\0M=ab\0");
        assertThat(p.environHas(3, "M=abc", 1024)).isEqualTo(ProcFs.EnvironEntry.ABSENT);
        assertThat(p.environHas(4, "M=abc", 1024)).as("a process that is gone").isEqualTo(ProcFs.EnvironEntry.ABSENT);
    }

    @Test
    void shouldSayAnEnvironmentLongerThanTheBoundWasNotReadWhole() throws IOException {
        ProcFs p = proc(5, "A=" + "x".repeat(100) + "\0M=abc\0");
        assertThat(p.environHas(5, "M=abc", 64)).isEqualTo(ProcFs.EnvironEntry.TOO_LONG);
        assertThat(p.environHas(5, "M=abc", 1024)).isEqualTo(ProcFs.EnvironEntry.PRESENT);
    }

    @Test
    @EnabledOnOs(OS.LINUX)
    void shouldReadARealProcessEnvironment() {
        String path = System.getenv("PATH");
        assertThat(ProcFs.system().environHas(ProcessHandle.current().pid(), "PATH=" + path, 1 << 20))
                .isEqualTo(ProcFs.EnvironEntry.PRESENT);
    }
}
