package dev.schedpolicy.engine.bench;

import dev.schedpolicy.engine.report.BenchReport;
import dev.schedpolicy.engine.report.HtmlReport;
import dev.schedpolicy.engine.report.ReportJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The benchmark's one entry point, for the CLI and for the Jenkins plugin on the agent:
 * {@code Benchmark.run(options, listener)} runs the matrix, streams progress to the listener, writes
 * report.json and report.html when an output directory is set, and returns the model and its JSON.
 * It never throws for a failed or interrupted run: the result is then marked partial with the reason.
 */
public final class Benchmark {
    private Benchmark() {
    }

    /** Throws IllegalArgumentException with a message when the label is not a benchmark policy. */
    public static void validatePolicy(final String label) {
        Starters.defaultStarter().validate(label);
    }

    public static BenchResult run(final BenchOptions options, final BenchListener listener) {
        BenchReport report = new MatrixRunner(options, listener).run();
        String json = ReportJson.toJson(report);
        Optional<Path> jsonFile = Optional.empty();
        Optional<Path> htmlFile = Optional.empty();
        if (options.outDir().isPresent()) {
            Path dir = options.outDir().get();
            try {
                Files.createDirectories(dir);
                jsonFile = Optional.of(Files.writeString(dir.resolve("report.json"), json));
                htmlFile = Optional.of(Files.writeString(dir.resolve("report.html"), HtmlReport.render(report)));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write the report to " + dir + ": " + e.getMessage(), e);
            }
        }
        listener.finished(report);
        return new BenchResult(report, json, jsonFile, htmlFile);
    }
}
