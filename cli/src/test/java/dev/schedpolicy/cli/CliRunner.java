package dev.schedpolicy.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Runs a class of this module's test class path in its own JVM, optionally behind a prefix (nice, chrt, setpriv). */
final class CliRunner {
    private final List<String> prefix;
    private final String classPath;
    private final List<String> jvmArgs;

    private CliRunner(final List<String> prefix, final String classPath, final List<String> jvmArgs) {
        this.prefix = List.copyOf(prefix);
        this.classPath = classPath;
        this.jvmArgs = List.copyOf(jvmArgs);
    }

    /** As this test JVM: same user, same class path. */
    static CliRunner local() {
        return new CliRunner(List.of(), System.getProperty("java.class.path"), List.of());
    }

    static CliRunner of(final List<String> prefix, final String classPath, final List<String> jvmArgs) {
        return new CliRunner(prefix, classPath, jvmArgs);
    }

    /** This runner with {@code more} in front of java (after the runner's own prefix), e.g. {@code nice -n 10}. */
    CliRunner behind(final String... more) {
        List<String> p = new ArrayList<>(prefix);
        p.addAll(List.of(more));
        return new CliRunner(p, classPath, jvmArgs);
    }

    CliRunner withJvmArgs(final String... args) {
        List<String> a = new ArrayList<>(jvmArgs);
        a.addAll(List.of(args));
        return new CliRunner(prefix, classPath, a);
    }

    /** The full command line for {@code schedpolicy ARGS}. */
    List<String> schedpolicy(final String... args) {
        return main(Main.class.getName(), args);
    }

    List<String> main(final String mainClass, final String... args) {
        List<String> argv = new ArrayList<>(prefix);
        argv.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        argv.addAll(jvmArgs);
        argv.addAll(List.of("-cp", classPath, mainClass));
        argv.addAll(List.of(args));
        return argv;
    }

    record Result(int exitCode, String out, String err) {
    }

    Result run(final String... args) {
        return exec(schedpolicy(args));
    }

    /** Runs to the end with stdin closed-by-EOF, collecting both streams; fails the test after 120 s. */
    static Result exec(final List<String> argv) {
        try {
            Process p = new ProcessBuilder(argv).start();
            p.getOutputStream().close();
            CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(p.getInputStream()));
            CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
            }
            assertThat(p.waitFor(10, TimeUnit.SECONDS)).as("finished: " + argv).isTrue();
            return new Result(p.exitValue(), out.join(), err.join());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    static String read(final InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
