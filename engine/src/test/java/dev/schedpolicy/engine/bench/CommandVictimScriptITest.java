package dev.schedpolicy.engine.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.schedpolicy.engine.proc.TaskStat;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/** The shell around a user's victim command, run by a real /bin/sh as the benchmark runs it. */
@EnabledOnOs(OS.LINUX)
class CommandVictimScriptITest {

    private static Process start(final String command) throws Exception {
        return new ProcessBuilder("/bin/sh", "-c", CommandVictim.script(command)).redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
    }

    @Test
    void shouldNotRunTheCommandWhenTheRunnerGoesAwayBeforeGo(@TempDir final Path dir) throws Exception {
        Path ran = dir.resolve("ran");
        Process p = start("touch " + ran);
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        assertThat(out.readLine()).isEqualTo("READY");
        p.getOutputStream().close();
        assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isEqualTo(125);
        assertThat(ran).doesNotExist();
    }

    @Test
    void shouldRunTheCommandOnGoWithNoInputAndPassItsExitCodeAfterDone(@TempDir final Path dir) throws Exception {
        Path ran = dir.resolve("ran");
        // cat would wait for the runner's pipe if the command inherited it; its output must not reach the runner
        Process p = start("cat; echo out; echo x > " + ran + "; exit 3");
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        assertThat(out.readLine()).isEqualTo("READY");
        assertThat(ran).doesNotExist();
        p.getOutputStream().write("GO\n".getBytes(StandardCharsets.US_ASCII));
        p.getOutputStream().flush();
        String done = out.readLine();
        assertThat(done).startsWith(CommandVictim.DONE);
        assertThat(TaskStat.parse(done.substring(CommandVictim.DONE.length())).cpuWithReapedChildrenNanos()).isNotNegative();
        assertThat(out.readLine()).isNull();
        assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isEqualTo(3);
        assertThat(Files.readString(ran)).isEqualTo("x\n");
    }
}
