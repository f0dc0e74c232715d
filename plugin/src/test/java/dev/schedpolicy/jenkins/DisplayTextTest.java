package dev.schedpolicy.jenkins;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The plugin's words live in Messages.properties (through the localizer's generated {@code Messages}), so that a
 * translator or a reviewer finds them in one place: no console line is spelled out in the Java sources.
 */
class DisplayTextTest {
    private static final Path SOURCES = Path.of("src/main/java/dev/schedpolicy/jenkins");

    @Test
    void shouldTakeEveryConsoleLineFromMessages() throws IOException {
        assertThat(matches(SOURCES, ".java", Pattern.compile("\"\\[schedpolicy\\][^\"]*\"")))
                .as("console lines written in Java instead of Messages.properties").isEmpty();
    }

    @Test
    void shouldFormatAConsoleLineAsBefore() {
        assertThat(Messages.Console_abortedWhileProbing("withSchedPolicy")).isEqualTo("[schedpolicy] withSchedPolicy: the build"
                + " was aborted while the agent probed the block's policy; the body did not run");
        assertThat(Messages.Console_line("")).isEqualTo("[schedpolicy] ");
    }

    /** FILE:LINE: TEXT of every match of the pattern in the files under root whose names end so. */
    static List<String> matches(final Path root, final String suffix, final Pattern pattern) throws IOException {
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(f -> f.toString().endsWith(suffix)).sorted().toList()) {
                List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
                for (int i = 0; i < lines.size(); i++) {
                    Matcher m = pattern.matcher(lines.get(i));
                    while (m.find()) {
                        found.add(root.relativize(file) + ":" + (i + 1) + ": " + m.group());
                    }
                }
            }
        }
        return found;
    }
}
