package dev.schedpolicy.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** schedpolicy run as a real separate process: streams, signals and exit status pass through exactly. */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RunProcessITest {
    /** The CLI as its own JVM on the test classpath. */
    static ProcessBuilder schedpolicy(final String... args) {
        List<String> argv = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        argv.addAll(List.of(args));
        return new ProcessBuilder(argv);
    }

    @Test
    void shouldPassStdinStdoutAndStderrThroughUntouched() throws Exception {
        Process p = schedpolicy("run", "--policy", "batch+nice19", "--", "sh", "-c", "cat; echo to-stderr >&2").start();
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
        Process p = schedpolicy("run", "--policy", "idle", "--", "sh", "-c",
                "trap 'echo got-term; exit 7' TERM; echo ready; while :; do sleep 0.05; done").start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        assertThat(out.readLine()).isEqualTo("ready");
        new ProcessBuilder("kill", "-TERM", String.valueOf(p.pid())).start().waitFor();
        assertThat(out.readLine()).isEqualTo("got-term");
        assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isEqualTo(7);
    }

    @Test
    void shouldForwardSigintWhenNotInATerminalForeground() throws Exception {
        Process p = schedpolicy("run", "--", "sh", "-c", "trap 'exit 9' INT; echo ready; while :; do sleep 0.05; done").start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        assertThat(out.readLine()).isEqualTo("ready");
        new ProcessBuilder("kill", "-INT", String.valueOf(p.pid())).start().waitFor();
        assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isEqualTo(9);
    }

    @Test
    void shouldExitWith128PlusSignalWhenTheCommandDiesFromASignal() throws Exception {
        Process p = schedpolicy("run", "--nice", "5", "--", "sh", "-c", "kill -KILL $$").start();
        assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isEqualTo(128 + 9);
    }

    @Test
    void shouldPrintWhatTheKernelReportsOnStderrWithVerify() throws Exception {
        Process p = schedpolicy("run", "--policy", "batch", "--nice", "12", "--io", "be:6", "--verify", "--", "sleep", "0.3")
                .start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).isZero();
        assertThat(err).contains("class batch, nice 12, io be:6");
        assertThat(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isEmpty();
    }
}
