package dev.schedpolicy.engine.scenario;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Finds scenarios by name or file. A name is looked up as the classpath resource
 * {@code /workloads/NAME.scenario}, then as {@code workloads/NAME.scenario} in the working directory,
 * its parents and the parents of the engine's jar (so a source checkout works without packaging).
 */
public final class ScenarioCatalog {
    /** The scenarios this project ships, in the order {@code --list} shows them. */
    public static final List<String> BUILT_IN = List.of("seed-cpu-looper", "seed-memory-looper", "periodic-latency",
            "nice-sweep", "cgroup-bandwidth", "threads-vs-cpus", "compile-vs-test", "javac-background", "javac-vs-test-job",
            "wakeup-latency", "cyclictest-latency");

    private final ScenarioParser parser;

    public ScenarioCatalog(final Consumer<String> policyValidator) {
        this.parser = new ScenarioParser(policyValidator);
    }

    /** @param nameOrFile a built-in name or a path to a scenario file */
    public Scenario load(final String nameOrFile) {
        Path asFile = Path.of(nameOrFile);
        if (nameOrFile.contains("/") || nameOrFile.endsWith(".scenario") || Files.isRegularFile(asFile)) {
            if (!Files.isRegularFile(asFile)) {
                throw new ScenarioException("scenario file " + nameOrFile + " does not exist");
            }
            try {
                return parser.parse(asFile.toString(), Files.readString(asFile));
            } catch (IOException e) {
                throw new ScenarioException("cannot read scenario file " + nameOrFile + ": " + e.getMessage());
            }
        }
        String file = nameOrFile + ".scenario";
        try (InputStream in = ScenarioCatalog.class.getResourceAsStream("/workloads/" + file)) {
            if (in != null) {
                return parser.parse("workloads/" + file, new String(in.readAllBytes(), StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new ScenarioException("cannot read built-in scenario " + file + ": " + e.getMessage());
        }
        Optional<Path> found = findOnDisk(file);
        if (found.isEmpty()) {
            throw new ScenarioException("unknown scenario '" + nameOrFile + "'; built-in: " + String.join(", ", BUILT_IN)
                    + " (or give a path to a .scenario file)");
        }
        try {
            return parser.parse(found.get().toString(), Files.readString(found.get()));
        } catch (IOException e) {
            throw new ScenarioException("cannot read scenario file " + found.get() + ": " + e.getMessage());
        }
    }

    /** The built-in scenarios that can be found here, parsed. */
    public List<Scenario> list() {
        List<Scenario> out = new ArrayList<>();
        for (String name : BUILT_IN) {
            out.add(load(name));
        }
        return out;
    }

    static Optional<Path> findOnDisk(final String file) {
        List<Path> starts = new ArrayList<>();
        starts.add(Path.of("").toAbsolutePath());
        try {
            starts.add(Path.of(ScenarioCatalog.class.getProtectionDomain().getCodeSource().getLocation().toURI()));
        } catch (Exception e) {
            // no code source: the working directory must do
        }
        for (Path start : starts) {
            for (Path p = start; p != null; p = p.getParent()) {
                Path candidate = p.resolve("workloads").resolve(file);
                if (Files.isRegularFile(candidate)) {
                    return Optional.of(candidate);
                }
            }
        }
        return Optional.empty();
    }
}
