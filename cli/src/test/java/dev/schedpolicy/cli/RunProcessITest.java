package dev.schedpolicy.cli;

import dev.schedpolicy.engine.proc.ProcFs;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/** schedpolicy run as a real separate process: streams, signals and exit status pass through exactly. */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RunProcessITest {
    private static final int SIGINT = 2;

    /** The CLI as its own JVM on the test classpath. */
    static ProcessBuilder schedpolicy(final String... args) {
        return new ProcessBuilder(CliRunner.local().schedpolicy(args));
    }

    private final List<Process> launched = new ArrayList<>();

    /** Starts the CLI and remembers it, so that a failed assertion leaves no wrapper or command running. */
    private Process launch(final String... args) throws IOException {
        Process p = schedpolicy(args).start();
        launched.add(p);
        return p;
    }

    @AfterEach
    void stopWhatIsStillRunning() {
        for (Process p : launched) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
    }

    @Test
    void shouldPassStdinStdoutAndStderrThroughUntouched() throws Exception {
        Process p = launch("run", "--policy", "batch+nice19", "--", "sh", "-c", "cat; echo to-stderr >&2");
        byte[] input = "line one\n\u00e9\u00e8 binary \u0001\u0002\nlast".getBytes(StandardCharsets.UTF_8);
        try (OutputStream in = p.getOutputStream()) {
            in.write(input);
        }
        assertThat(p.getInputStream().readAllBytes()).isEqualTo(input);
        assertThat(new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("to-stderr\n");
        assertThat(p.waitFor()).isZero();
    }

    @Test
    void shouldForwardSigtermAndReturnTheCommandsOwnStatus() throws Exception {
        Process p = launch("run", "--policy", "idle", "--", "sh", "-c",
                "trap 'echo got-term; exit 7' TERM; echo ready; while :; do sleep 0.05; done");
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        assertThat(out.readLine()).isEqualTo("ready");
        new ProcessBuilder("kill", "-TERM", String.valueOf(p.pid())).start().waitFor();
        assertThat(out.readLine()).isEqualTo("got-term");
        assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isEqualTo(7);
    }

    /**
     * Whether this JVM started with SIGINT ignored, as under nohup or when a script starts the build with {@code &}:
     * the CLI and its command then inherit that on purpose (an ignored signal stays ignored across exec), so no
     * SIGINT test can show forwarding or Ctrl-C here.
     */
    static boolean sigintIgnoredHere() {
        long ignored = ProcFs.system().signalSet(ProcessHandle.current().pid(), OptionalLong.empty(), "SigIgn").orElseThrow();
        return (ignored & (1L << (SIGINT - 1))) != 0;
    }

    static final String SIGINT_IGNORED = "SIGINT is ignored in this test JVM (inherited from nohup or a background start)";

    @Test
    void shouldForwardSigintWhenNotInATerminalForeground() throws Exception {
        assumeFalse(sigintIgnoredHere(), SIGINT_IGNORED);
        Process p = launch("run", "--", "sh", "-c", "trap 'exit 9' INT; echo ready; while :; do sleep 0.05; done");
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        assertThat(out.readLine()).isEqualTo("ready");
        new ProcessBuilder("kill", "-INT", String.valueOf(p.pid())).start().waitFor();
        assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isEqualTo(9);
    }

    @Test
    void shouldExitWith128PlusSignalWhenTheCommandDiesFromASignal() throws Exception {
        Process p = launch("run", "--nice", "5", "--", "sh", "-c", "kill -KILL $$");
        assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isEqualTo(128 + 9);
    }

    @Test
    void shouldPrintWhatTheKernelReportsOnStderrWithVerify() throws Exception {
        Process p = launch("run", "--policy", "batch", "--nice", "12", "--io", "be:6", "--verify", "--", "sleep", "0.3");
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).isZero();
        assertThat(err).contains("class batch, nice 12, io be:6");
        assertThat(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isEmpty();
    }
}
