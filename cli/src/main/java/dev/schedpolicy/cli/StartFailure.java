package dev.schedpolicy.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** Why a command could not be started, in a shell's words and exit codes (127 not found, 126 cannot execute). */
record StartFailure(int exitCode, String message) {
    static StartFailure of(final String command, final IOException e) {
        String detail = String.valueOf(e.getMessage());
        Optional<Path> file = resolve(command);
        if (detail.contains("error=2,")) {
            if (file.isEmpty()) {
                return new StartFailure(ExitCodes.NOT_FOUND, "command not found: " + command);
            }
            // execve says ENOENT for an existing script whose #! interpreter is missing
            return new StartFailure(ExitCodes.NOT_EXECUTABLE, command + ": bad interpreter"
                    + interpreter(file.get()).map(i -> ": " + i + ": no such file or directory").orElse(""));
        }
        if (detail.contains("error=13,")) {
            return new StartFailure(ExitCodes.NOT_EXECUTABLE, "command not executable: " + command + " (permission denied)");
        }
        return new StartFailure(ExitCodes.NOT_EXECUTABLE, "cannot start " + command + ": " + detail);
    }

    /** The file execvp would run: the path itself when it holds a '/', else the first match on PATH. */
    private static Optional<Path> resolve(final String command) {
        if (command.contains("/")) {
            return Optional.of(Path.of(command)).filter(Files::exists);
        }
        String path = System.getenv("PATH");
        for (String dir : (path == null ? "/usr/local/bin:/usr/bin:/bin" : path).split(":", -1)) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir).resolve(command);
            if (Files.isRegularFile(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    private static Optional<String> interpreter(final Path script) {
        try (InputStream in = Files.newInputStream(script)) {
            String head = new String(in.readNBytes(256), StandardCharsets.ISO_8859_1);
            if (!head.startsWith("#!")) {
                return Optional.empty();
            }
            String line = head.substring(2).lines().findFirst().orElse("").trim();
            return line.isEmpty() ? Optional.empty() : Optional.of(line.split("\\s+")[0]);
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}
