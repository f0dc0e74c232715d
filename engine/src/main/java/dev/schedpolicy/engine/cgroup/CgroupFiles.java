package dev.schedpolicy.engine.cgroup;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * All cgroupfs I/O goes through here so that every failure becomes a {@link CgroupException} with the
 * file, operation and errno words. mkdir/rmdir are overridable because on a real cgroupfs the kernel
 * populates and removes the control files itself; tests imitate that on a plain directory tree.
 */
class CgroupFiles {

    String read(final Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw failure("read", file, e, "");
        }
    }

    /**
     * One value per write() call: cgroupfs parses each write on its own. No CREATE, because a missing
     * control file means the controller or kernel feature is absent, never that we should make one.
     */
    void write(final Path file, final String value) {
        try {
            Files.write(file, value.getBytes(StandardCharsets.UTF_8),
                    StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
        } catch (IOException e) {
            throw failure("write '" + value + "' to", file, e, "");
        }
    }

    void mkdir(final Path dir) throws IOException {
        Files.createDirectory(dir);
    }

    void rmdir(final Path dir) throws IOException {
        Files.delete(dir);
    }

    boolean exists(final Path file) {
        return Files.exists(file);
    }

    List<Long> readIds(final Path file) {
        List<Long> ids = new ArrayList<>();
        for (String line : read(file).split("\n")) {
            if (!line.isBlank()) {
                ids.add(Long.parseLong(line.trim()));
            }
        }
        return ids;
    }

    /** "key value" lines as in cpu.stat; unparsable lines are skipped since kernels add fields freely. */
    Map<String, Long> readKeyed(final Path file) {
        Map<String, Long> values = new HashMap<>();
        for (String line : read(file).split("\n")) {
            String[] parts = line.trim().split("\\s+");
            if (parts.length == 2) {
                try {
                    values.put(parts[0], Long.parseLong(parts[1]));
                } catch (NumberFormatException ignored) {
                    // a non-numeric field is not one we read
                }
            }
        }
        return values;
    }

    List<Path> childDirs(final Path dir) {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.filter(Files::isDirectory).sorted().toList();
        } catch (IOException e) {
            throw failure("list", dir, e, "");
        }
    }

    static CgroupException failure(final String operation, final Path file, final IOException cause,
            final String hint) {
        String message = "cannot " + operation + " " + file + ": " + ErrnoWords.describe(cause)
                + (hint.isEmpty() ? "" : "; " + hint);
        return new CgroupException(message, file, cause);
    }
}
