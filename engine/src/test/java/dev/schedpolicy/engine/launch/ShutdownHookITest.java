package dev.schedpolicy.engine.launch;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A library user's JVM (not the CLI, not the plugin) stopped with policed children running: SIGTERM runs the engine's
 * shutdown hook, which ends them and removes their groups; SIGKILL runs nothing, so the children run on under their
 * policy and the next engine start removes their groups once they are empty. Before the hook, SIGTERM left both
 * loopers running and the quota group in place.
 */
@EnabledOnOs(OS.LINUX)
@Tag("kernel")
class ShutdownHookITest {
    private static final String LOOPER = "while :; do sleep 1; done";

    @TempDir
    Path state;

    @TempDir
    Path work;

    private final List<Long> loopers = new ArrayList<>();

    @AfterEach
    void killWhatIsLeft() {
        loopers.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
    }

    @Test
    void shouldEndItsPolicedChildrenAndRemoveTheirGroupsOnSigterm() throws Exception {
        Process engine = engine("batch+nice19+quota50", "batch+nice19");
        List<Long> children = running(engine);
        assertThat(CgroupLeftovers.groupsOf(engine.pid())).as("the quota launch's group while it runs").isNotEmpty();

        engine.destroy(); // SIGTERM
        assertThat(engine.waitFor(30, TimeUnit.SECONDS)).isTrue();

        assertThat(engine.exitValue()).as("a JVM ended by SIGTERM").isEqualTo(143);
        for (long child : children) {
            assertThat(endsWithin(child, 10)).as("looper %d ended after its JVM's SIGTERM", child).isTrue();
        }
        assertThat(CgroupLeftovers.groupsOf(engine.pid())).as("groups of the SIGTERMed JVM").isEmpty();
    }

    @Test
    void shouldLeaveGroupsOfASigkilledJvmToTheNextStart() throws Exception {
        Process engine = engine("batch+nice19+quota50");
        List<Long> children = running(engine);

        engine.destroyForcibly();
        assertThat(engine.waitFor(30, TimeUnit.SECONDS)).isTrue();

        // nothing runs in a SIGKILLed JVM: the looper goes on, still in its group (docs/architecture.md)
        Thread.sleep(200);
        assertThat(ProcessHandle.of(children.get(0))).as("the looper after SIGKILL of its JVM").isPresent();
        assertThat(CgroupLeftovers.groupsOf(engine.pid())).as("its group after SIGKILL").isNotEmpty();
        ProcessHandle.of(children.get(0)).ifPresent(h -> {
            h.destroyForcibly();
            h.onExit().join();
        });
        Process next = new ProcessBuilder(java(KillableEngine.class.getName(), "once", state.toString(), "batch+quota50", "/bin/true"))
                .redirectErrorStream(true).redirectOutput(work.resolve("next.out").toFile()).start();
        assertThat(next.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(next.exitValue()).as(Files.readString(work.resolve("next.out"))).isZero();
        assertThat(CgroupLeftovers.groupsOf(engine.pid())).as("groups of the SIGKILLed JVM after the next start").isEmpty();
    }

    private static boolean endsWithin(final long pid, final int seconds) throws InterruptedException {
        Optional<ProcessHandle> h = ProcessHandle.of(pid);
        try {
            return h.isEmpty() || !h.get().onExit().get(seconds, TimeUnit.SECONDS).isAlive();
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            return false;
        }
    }

    private Process engine(final String... policies) throws Exception {
        List<String> args = new ArrayList<>(List.of(TerminableEngine.class.getName(), state.toString()));
        args.addAll(List.of(policies));
        args.addAll(List.of("--", "sh", "-c", LOOPER));
        return new ProcessBuilder(java(args.toArray(String[]::new))).redirectError(work.resolve("engine.err").toFile()).start();
    }

    private List<Long> running(final Process engine) throws Exception {
        String line = new BufferedReader(new InputStreamReader(engine.getInputStream(), StandardCharsets.US_ASCII)).readLine();
        assertThat(line).as("engine said (stderr: %s)", Files.readString(work.resolve("engine.err"))).startsWith("RUNNING ");
        List<Long> pids = Arrays.stream(line.substring("RUNNING ".length()).split(" ")).map(Long::valueOf).toList();
        loopers.addAll(pids);
        for (long pid : pids) {
            assertThat(ProcessHandle.of(pid)).as("looper %d", pid).isPresent();
        }
        return pids;
    }

    private static List<String> java(final String... args) {
        List<String> argv = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path")));
        argv.addAll(List.of(args));
        return argv;
    }
}
