package dev.schedpolicy.cli;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The command's stdin, stdout and stderr: schedpolicy's own, except one it was started without. A closed
 * descriptor (e.g. {@code <&-}) is taken by the first file the JVM opens, the JDK's {@code lib/modules}, which the
 * command would then read as its stdin; a closed stream is given /dev/null instead.
 */
final class StandardStreams {
    private static final File NULL = new File("/dev/null");

    private StandardStreams() {
    }

    static ProcessBuilder apply(final ProcessBuilder builder) {
        builder.inheritIO();
        if (closedAtStart(0)) {
            builder.redirectInput(ProcessBuilder.Redirect.from(NULL));
        }
        if (closedAtStart(1)) {
            builder.redirectOutput(ProcessBuilder.Redirect.DISCARD);
        }
        if (closedAtStart(2)) {
            builder.redirectError(ProcessBuilder.Redirect.DISCARD);
        }
        return builder;
    }

    /** Whether descriptor {@code fd} now holds a file of the JVM itself: then it was closed when we started. */
    static boolean closedAtStart(final int fd) {
        try {
            Path target = Files.readSymbolicLink(Path.of("/proc/self/fd/" + fd));
            return target.startsWith(Path.of(System.getProperty("java.home")).toRealPath());
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }
}
