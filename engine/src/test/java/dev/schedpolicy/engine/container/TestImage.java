package dev.schedpolicy.engine.container;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assumptions.abort;

/** The test image's root filesystem: the host's static busybox and its applet links, nothing else (no registry here). */
final class TestImage {
    private static final List<String> BUSYBOX = List.of("/bin/busybox", "/usr/bin/busybox");

    /** How a test runs a command line and fails with its output; a shell pipeline is run as {@code sh -c}. */
    @FunctionalInterface
    interface Runner {
        String ok(String... argv) throws IOException;
    }

    private TestImage() {
    }

    /** Builds the root filesystem in a temp dir and pipes it as a tar into {@code importCommand} (reading "-"). */
    static void importInto(final List<String> importCommand, final Runner runner) throws IOException {
        Path busybox = BUSYBOX.stream().map(Path::of).filter(Files::isExecutable).findFirst().orElse(null);
        if (busybox == null) {
            abort("the test image is missing and there is no static busybox to build it from (.ci/run installs busybox-static)");
        }
        Path dir = Files.createTempDirectory("schedpolicy-image");
        try {
            Files.createDirectories(dir.resolve("bin"));
            Files.copy(busybox, dir.resolve("bin/busybox"));
            Files.createDirectories(dir.resolve("tmp"));
            for (String applet : runner.ok(busybox.toString(), "--list").lines().toList()) {
                if (!"busybox".equals(applet)) {
                    Files.createSymbolicLink(dir.resolve("bin").resolve(applet), Path.of("busybox"));
                }
            }
            runner.ok("sh", "-c", "tar -C '" + dir + "' -c . | " + String.join(" ", importCommand.stream().map(a -> "'" + a + "'").toList()));
        } finally {
            try (Stream<Path> walk = Files.walk(dir)) {
                for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }
}
