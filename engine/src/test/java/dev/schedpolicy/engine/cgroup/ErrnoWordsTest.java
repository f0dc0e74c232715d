package dev.schedpolicy.engine.cgroup;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import org.junit.jupiter.api.Test;

class ErrnoWordsTest {
    @Test
    void shouldNameErrnoForTheJdksDedicatedExceptions() {
        assertThat(ErrnoWords.describe(new AccessDeniedException("/x"))).isEqualTo("permission denied (EACCES)");
        assertThat(ErrnoWords.describe(new NoSuchFileException("/x")))
                .isEqualTo("no such file or directory (ENOENT)");
        assertThat(ErrnoWords.describe(new FileAlreadyExistsException("/x"))).isEqualTo("file exists (EEXIST)");
        assertThat(ErrnoWords.describe(new DirectoryNotEmptyException("/x")))
                .isEqualTo("directory not empty (ENOTEMPTY)");
    }

    @Test
    void shouldNameErrnoFromTheStrerrorReasonOfFileSystemException() {
        assertThat(ErrnoWords.describe(new FileSystemException("/x", null, "Read-only file system")))
                .isEqualTo("read-only file system (EROFS)");
        assertThat(ErrnoWords.describe(new FileSystemException("/x", null, "Device or resource busy")))
                .isEqualTo("device or resource busy (EBUSY)");
        assertThat(ErrnoWords.describe(new FileSystemException("/x", null, "Operation not permitted")))
                .isEqualTo("operation not permitted (EPERM)");
    }

    /** A failed write() on an already open file reaches us as a bare IOException with the strerror text. */
    @Test
    void shouldNameErrnoFromABareIoExceptionOfAFailedWrite() {
        assertThat(ErrnoWords.describe(new IOException("Invalid argument"))).isEqualTo("invalid argument (EINVAL)");
        assertThat(ErrnoWords.describe(new IOException("No such process"))).isEqualTo("no such process (ESRCH)");
        assertThat(ErrnoWords.is(new IOException("Device or resource busy"), "EBUSY")).isTrue();
    }

    @Test
    void shouldKeepUnknownReasonsVerbatim() {
        assertThat(ErrnoWords.describe(new IOException("Stale file handle"))).isEqualTo("Stale file handle");
        assertThat(ErrnoWords.describe(new IOException())).isEqualTo("IOException");
    }
}
