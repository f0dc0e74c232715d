package dev.schedpolicy.engine.launch;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The checks ProcessBuilder.start() makes before it runs a command, for launches whose process is the park
 * shim ({@code sh}): there the command is only exec'd after release, so a missing one would surface as the
 * shell's "exec: X: not found" and exit 127 instead of the IOException a direct start throws. Same lookup as
 * the JDK: a name without '/' is searched in this JVM's PATH, a path is taken relative to the working directory.
 * A command removed between this check and the exec still gets the shell's message.
 */
public final class CommandLookup {
    private CommandLookup() {
    }

    /** @throws IOException worded like ProcessBuilder's ("error=2, No such file or directory"; "error=13, ...") */
    public static void requireRunnable(final ProcessBuilder builder) throws IOException {
        List<String> command = builder.command();
        if (command.isEmpty()) {
            throw new IndexOutOfBoundsException("the command is empty");
        }
        String name = command.get(0);
        Optional<Path> found = name.contains("/") ? Optional.of(resolve(builder, name)).filter(Files::exists)
                : searchPath(name);
        if (found.isEmpty()) {
            throw new IOException(cannotRun(builder, name) + "error=2, No such file or directory");
        }
        if (Files.isDirectory(found.get()) || !Files.isExecutable(found.get())) {
            throw new IOException(cannotRun(builder, name) + "error=13, Permission denied");
        }
    }

    private static Path resolve(final ProcessBuilder builder, final String name) {
        File dir = builder.directory();
        return dir == null ? Path.of(name) : dir.toPath().resolve(name);
    }

    /** The first executable match wins, as in execvp; a non-executable match alone means EACCES. */
    private static Optional<Path> searchPath(final String name) {
        String path = Optional.ofNullable(System.getenv("PATH")).orElse("/bin:/usr/bin");
        Optional<Path> any = Optional.empty();
        for (String dir : path.split(":", -1)) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir).resolve(name);
            if (Files.isRegularFile(candidate)) {
                if (Files.isExecutable(candidate)) {
                    return Optional.of(candidate);
                }
                any = any.or(() -> Optional.of(candidate));
            }
        }
        return any;
    }

    private static String cannotRun(final ProcessBuilder builder, final String name) {
        return "Cannot run program \"" + name + "\"" + (builder.directory() == null ? ""
                : " (in directory \"" + builder.directory() + "\")") + ": ";
    }
}
