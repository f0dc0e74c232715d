package dev.schedpolicy.dist;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The tarball as a user gets it: unpacked elsewhere, started through bin/schedpolicy, nothing else from the build. */
@EnabledOnOs(OS.LINUX)
class DistributionITest {
    private static final String VERSION = System.getProperty("schedpolicy.version");

    @TempDir
    static Path root;

    private static Path home;

    @BeforeAll
    static void unpack() throws Exception {
        Path tarball = Path.of(System.getProperty("schedpolicy.tarball"));
        assertThat(tarball).exists();
        assertThat(run(List.of("tar", "-xzf", tarball.toString(), "-C", root.toString()), Map.of()).code).isZero();
        home = root.resolve("schedpolicy-" + VERSION);
    }

    @Test
    void shouldShipTheLauncherTheJarTheCompletionAndTheManPages() throws IOException {
        assertThat(Files.isExecutable(home.resolve("bin/schedpolicy"))).isTrue();
        assertThat(home.resolve("lib/schedpolicy.jar")).isRegularFile();
        assertThat(Files.readString(home.resolve("share/bash-completion/completions/schedpolicy")))
                .contains("complete -F", "_picocli_schedpolicy", "--cpu-quota", "--scenario");
        String man = Files.readString(home.resolve("share/man/man1/schedpolicy-run.1"));
        assertThat(man).startsWith("'\\\" t").contains(".TH \"SCHEDPOLICY\\-RUN\"", "\\-\\-cpu\\-quota");
        assertThat(home.resolve("share/man/man1/schedpolicy.1")).isRegularFile();
        assertThat(home.resolve("share/man/man1/schedpolicy-bench.1")).isRegularFile();
    }

    @Test
    void shouldPrintItsVersionThroughTheLauncher() throws Exception {
        Result r = run(List.of(home.resolve("bin/schedpolicy").toString(), "--version"), cache());
        assertThat(r.code).as(r.err).isZero();
        assertThat(r.out).isEqualTo("schedpolicy " + VERSION + "\n");
        assertThat(r.err).isEmpty();
    }

    @Test
    void shouldRunACommandUnderAPolicyFromASymlinkOnPath() throws Exception {
        Path binDir = Files.createDirectories(root.resolve("usr-local-bin"));
        Path link = Files.createSymbolicLink(binDir.resolve("schedpolicy"), home.resolve("bin/schedpolicy"));
        Result r = run(List.of(link.toString(), "run", "--policy", "batch+nice7", "--verify", "--", "sh", "-c",
                "echo out; echo err >&2; exit 3"), cache());
        assertThat(r.code).isEqualTo(3);
        assertThat(r.out).isEqualTo("out\n");
        assertThat(r.err).contains("err\n", "class batch, nice 7");
    }

    @Test
    void shouldLoadJnasNativeLibraryInPlaceInsteadOfCopyingItOutOfTheJar() throws Exception {
        assertThat(home.resolve("lib/jna/linux-x86-64/libjnidispatch.so")).isRegularFile();
        assertThat(home.resolve("lib/jna/linux-aarch64/libjnidispatch.so")).isRegularFile();
        Map<String, String> env = new HashMap<>(cache());
        env.put("SCHEDPOLICY_JAVA_OPTS", "-Djna.debug_load.jna=true");
        Result r = run(List.of(home.resolve("bin/schedpolicy").toString(), "run", "--policy", "nice3", "--", "true"), env);
        assertThat(r.code).as(r.err).isZero();
        // JNA's own log of where it found the library; a copy out of the jar would be "Found library resource at"
        assertThat(r.err).doesNotContain("Found library resource");
        String found = r.err.lines().filter(l -> l.contains("Found jnidispatch at ")).findFirst().orElseThrow();
        Path loaded = Path.of(found.substring(found.indexOf(" at ") + 4)).normalize();
        assertThat(loaded.getParent().getParent()).isEqualTo(home.resolve("lib/jna"));
        assertThat(loaded.getFileName()).hasToString("libjnidispatch.so");
    }

    @Test
    void shouldNotRunLdconfigOnEveryStart() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/strace")), "needs strace (.ci/run installs it)");
        Path trace = root.resolve("execve.txt");
        Result r = run(List.of("/usr/bin/strace", "-f", "-qq", "-e", "trace=execve", "-o", trace.toString(),
                home.resolve("bin/schedpolicy").toString(), "run", "--policy", "nice2", "--", "true"), cache());
        assertThat(r.code).as(r.err).isZero();
        List<String> programs = Files.readAllLines(trace).stream().filter(l -> l.contains("execve(\""))
                .map(l -> l.substring(l.indexOf("execve(\"") + 8, l.indexOf('"', l.indexOf("execve(\"") + 8))).toList();
        // before JnaStartup, JNA ran /sbin/ldconfig -p (through the JDK's jspawnhelper) on every start
        assertThat(programs).anyMatch(p -> p.endsWith("/true")).noneMatch(p -> p.contains("ldconfig"));
    }

    /** A private cache, so the first run's class-data archive is made here and nowhere in the user's home. */
    private static Map<String, String> cache() {
        return Map.of("XDG_CACHE_HOME", root.resolve("cache").toString());
    }

    private record Result(int code, String out, String err) {
    }

    private static Result run(final List<String> argv, final Map<String, String> env) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(new ArrayList<>(argv));
        pb.environment().putAll(env);
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        Process p = pb.start();
        p.getOutputStream().close();
        var out = p.getInputStream();
        var err = p.getErrorStream();
        byte[] o = out.readAllBytes();
        byte[] e = err.readAllBytes();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        return new Result(p.exitValue(), new String(o, StandardCharsets.UTF_8), new String(e, StandardCharsets.UTF_8));
    }
}
