package dev.schedpolicy.cli;

import dev.schedpolicy.engine.jna.JnaKernel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * Signals as a terminal user and a supervisor send them. The terminal cases run schedpolicy in a real pty
 * (util-linux script): Ctrl-C and Ctrl-\ go to the whole foreground process group, schedpolicy included.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WrapperSignalsITest {
    /** The command prints ready, then would run 6 s and say so; a signal must end it before. */
    private static final List<String> SLOW = List.of("sh", "-c", "ulimit -c 0; echo ready; sleep 6; echo survived");

    private static String quoted(final List<String> argv) {
        return argv.stream().map(a -> "'" + a.replace("'", "'\\''") + "'").collect(Collectors.joining(" "));
    }

    /** Runs schedpolicy run -- SLOW in a pty, types {@code key} once the command is ready; returns exit code and screen. */
    private static CliRunner.Result inTerminal(final char key, final String... options) throws Exception {
        List<String> argv = new java.util.ArrayList<>(List.of("run"));
        argv.addAll(List.of(options));
        argv.add("--");
        argv.addAll(SLOW);
        String command = quoted(CliRunner.local().schedpolicy(argv.toArray(String[]::new)));
        Process script = new ProcessBuilder("script", "-qfec", command, "/dev/null").redirectErrorStream(true).start();
        StringBuilder screen = new StringBuilder();
        try (OutputStream keyboard = script.getOutputStream()) {
            BufferedReader in = new BufferedReader(new InputStreamReader(script.getInputStream(), StandardCharsets.UTF_8));
            String line;
            while ((line = in.readLine()) != null) {
                screen.append(line).append('\n');
                if (line.contains("ready")) {
                    break;
                }
            }
            keyboard.write(key);
            keyboard.flush();
            CompletableFuture<String> rest = CompletableFuture.supplyAsync(() -> CliRunner.read(script.getInputStream()));
            assertThat(script.waitFor(60, TimeUnit.SECONDS)).isTrue();
            screen.append(rest.join());
        } finally {
            script.descendants().forEach(ProcessHandle::destroyForcibly);
            script.destroyForcibly();
        }
        return new CliRunner.Result(script.exitValue(), screen.toString(), "");
    }

    @Test
    void shouldLetCtrlCInATerminalStopTheCommand() throws Exception {
        assumeFalse(RunProcessITest.sigintIgnoredHere(), RunProcessITest.SIGINT_IGNORED);
        CliRunner.Result r = inTerminal('\u0003', "--policy", "idle");

        assertThat(r.out()).contains("ready").doesNotContain("survived");
        assertThat(r.exitCode()).as(r.out()).isEqualTo(128 + 2);
    }

    @Test
    void shouldLetCtrlBackslashInATerminalQuitTheCommandWithoutAThreadDump() throws Exception {
        CliRunner.Result r = inTerminal('\u001c', "--policy", "batch");

        assertThat(r.out()).contains("ready").doesNotContain("survived").doesNotContain("thread dump").doesNotContain("\"main\"");
        assertThat(r.exitCode()).as(r.out()).isEqualTo(128 + 3);
    }

    @Test
    void shouldNotWriteAThreadDumpIntoTheCommandsStdoutOnSigquit() throws Exception {
        Process p = new ProcessBuilder(CliRunner.local().schedpolicy("run", "--", "sh", "-c", "echo ready; read x; echo done")).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        assertThat(out.readLine()).isEqualTo("ready");
        new ProcessBuilder("kill", "-QUIT", String.valueOf(p.pid())).start().waitFor();
        Thread.sleep(500);
        p.getOutputStream().close();
        String rest = CliRunner.read(p.getInputStream());
        assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
        assertThat(rest).isEqualTo("done\n");
        assertThat(p.exitValue()).isZero();
    }

    @Test
    void shouldForwardSignalsItDoesNotOwnInsteadOfDyingAndOrphaningTheCommand() throws Exception {
        Process p = new ProcessBuilder(CliRunner.local().schedpolicy("run", "--", "sh", "-c",
                "trap 'echo got-usr1; exit 5' USR1; echo ready; while :; do sleep 0.05; done")).start();
        List<ProcessHandle> tree = List.of();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            assertThat(out.readLine()).isEqualTo("ready");
            tree = p.descendants().toList(); // once schedpolicy died, an orphaned command is no longer found through it
            new ProcessBuilder("kill", "-USR1", String.valueOf(p.pid())).start().waitFor();
            assertThat(out.readLine()).isEqualTo("got-usr1");
            assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).isEqualTo(5);
        } finally {
            tree.forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
    }

    /**
     * Dispositions and mask are a normal child's: schedpolicy is started with a given mask (a Java thread would
     * pass on its blocked SIGQUIT), and the command gets exactly that mask and the caller's ignored set (bits
     * 1..31: glibc's posix_spawn leaves its internal signals 32 and 33 ignored).
     */
    @ParameterizedTest
    @ValueSource(longs = {0L, 1L << 9})
    void shouldStartTheCommandWithTheCallersSignalDispositionsAndMask(final long callerMask) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(CliRunner.local().schedpolicy("run", "--policy", "idle", "--", "cat", "/proc/self/status"));
        Process[] started = new Process[1];
        Thread spawner = new Thread(() -> {
            JnaKernel.get().setSignalMask(callerMask);
            try {
                started[0] = builder.start();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        spawner.start();
        spawner.join();
        Process p = started[0];
        p.getOutputStream().close();
        String out = CliRunner.read(p.getInputStream());
        assertThat(p.waitFor()).isZero();

        long ownIgnored = field(Files.readString(Path.of("/proc/self/status")), "SigIgn");
        assertThat(field(out, "SigBlk")).as("blocked").isEqualTo(callerMask);
        assertThat(field(out, "SigIgn") & 0x7fffffffL).as("ignored").isEqualTo(ownIgnored & 0x7fffffffL);
    }

    private static long field(final String status, final String name) {
        return Long.parseUnsignedLong(status.lines().filter(l -> l.startsWith(name + ":")).findFirst().orElseThrow()
                .substring(name.length() + 1).trim(), 16);
    }
}
