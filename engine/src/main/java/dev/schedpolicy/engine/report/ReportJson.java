package dev.schedpolicy.engine.report;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** report.json: writing and reading {@link BenchReport}; readers reject a newer major schema. */
public final class ReportJson {
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private ReportJson() {
    }

    public static String toJson(final BenchReport report) {
        try {
            return MAPPER.writeValueAsString(report);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the report as JSON: " + e.getMessage(), e);
        }
    }

    public static BenchReport fromJson(final String json) {
        try {
            BenchReport r = MAPPER.readValue(json, BenchReport.class);
            if (r.schemaVersion() > BenchReport.SCHEMA_VERSION) {
                throw new IllegalArgumentException("report schema " + r.schemaVersion() + " is newer than this reader ("
                        + BenchReport.SCHEMA_VERSION + "); update schedpolicy");
            }
            return r;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the report JSON: " + e.getMessage(), e);
        }
    }

    public static void write(final BenchReport report, final Path file) throws IOException {
        Files.writeString(file, toJson(report));
    }

    public static BenchReport read(final Path file) throws IOException {
        return fromJson(Files.readString(file));
    }
}
