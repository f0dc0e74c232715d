package dev.schedpolicy.engine.bench;

import dev.schedpolicy.engine.report.BenchReport;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What {@link Benchmark#run} returns.
 *
 * @param report   the model (also for the Jenkins build action)
 * @param json     the report as report.json holds it
 * @param jsonFile DIR/report.json when an output directory was given
 * @param htmlFile DIR/report.html when an output directory was given
 */
public record BenchResult(BenchReport report, String json, Optional<Path> jsonFile, Optional<Path> htmlFile) {
}
