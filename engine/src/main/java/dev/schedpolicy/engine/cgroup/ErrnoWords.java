package dev.schedpolicy.engine.cgroup;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.Locale;
import java.util.Map;

/**
 * Turns java.nio failures back into errno words. The JDK keeps only strerror text (and for a failed
 * write() on an open file only a bare IOException carrying that text), while users search for the errno
 * name, so we give both.
 */
final class ErrnoWords {
    private static final Map<String, String> BY_STRERROR = Map.ofEntries(
            Map.entry("permission denied", "permission denied (EACCES)"),
            Map.entry("operation not permitted", "operation not permitted (EPERM)"),
            Map.entry("read-only file system", "read-only file system (EROFS)"),
            Map.entry("device or resource busy", "device or resource busy (EBUSY)"),
            Map.entry("no such file or directory", "no such file or directory (ENOENT)"),
            Map.entry("no such process", "no such process (ESRCH)"),
            Map.entry("invalid argument", "invalid argument (EINVAL)"),
            Map.entry("file exists", "file exists (EEXIST)"),
            Map.entry("directory not empty", "directory not empty (ENOTEMPTY)"),
            Map.entry("no space left on device", "no space left on device (ENOSPC)"),
            Map.entry("resource temporarily unavailable", "resource temporarily unavailable (EAGAIN)"),
            Map.entry("operation not supported", "operation not supported (EOPNOTSUPP)"),
            Map.entry("numerical result out of range", "numerical result out of range (ERANGE)"),
            Map.entry("not a directory", "not a directory (ENOTDIR)"));

    private ErrnoWords() {
    }

    static String describe(final IOException failure) {
        if (failure instanceof AccessDeniedException) {
            return BY_STRERROR.get("permission denied");
        }
        if (failure instanceof NoSuchFileException) {
            return BY_STRERROR.get("no such file or directory");
        }
        if (failure instanceof FileAlreadyExistsException) {
            return BY_STRERROR.get("file exists");
        }
        if (failure instanceof DirectoryNotEmptyException) {
            return BY_STRERROR.get("directory not empty");
        }
        if (failure instanceof NotDirectoryException) {
            return BY_STRERROR.get("not a directory");
        }
        String text = failure instanceof FileSystemException fse ? fse.getReason() : failure.getMessage();
        if (text == null || text.isBlank()) {
            return failure.getClass().getSimpleName();
        }
        return BY_STRERROR.getOrDefault(text.trim().toLowerCase(Locale.ROOT), text.trim());
    }

    /** True when the failure is the given errno name, e.g. "EBUSY". */
    static boolean is(final IOException failure, final String errnoName) {
        return describe(failure).endsWith("(" + errnoName + ")");
    }
}
