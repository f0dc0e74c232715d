package dev.schedpolicy.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** README's main command writes into the checkout: its output must not turn a fresh clone dirty. */
class RepositoryLayoutTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void shouldIgnoreTheDefaultBenchOutputDirectory() throws IOException {
        String out = new CommandLine(new BenchCommand()).getCommandSpec().findOption("--out").defaultValue();
        assertThat(Files.readAllLines(ROOT.resolve(".gitignore"))).contains("/" + out + "/");
    }

    @Test
    void shouldKeepAnExampleReportUnderDocs() throws IOException {
        Path example = ROOT.resolve("docs/example-report");
        assertThat(Files.readString(example.resolve("report.json"))).contains("\"schemaVersion\"", "\"cells\"");
        assertThat(Files.readString(example.resolve("report.html"))).startsWith("<!DOCTYPE html>");
        assertThat(ROOT.resolve("bench-report/report.json")).as("a committed output file would be overwritten by the first run")
                .satisfiesAnyOf(p -> assertThat(p).doesNotExist(), p -> assertThat(gitTracks(p)).isFalse());
    }

    private static boolean gitTracks(final Path file) {
        try {
            Process p = new ProcessBuilder("git", "-C", ROOT.toString(), "ls-files", "--error-unmatch", file.toString())
                    .redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor() == 0;
        } catch (IOException e) {
            return false; // no git here: the .gitignore check above still holds
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
