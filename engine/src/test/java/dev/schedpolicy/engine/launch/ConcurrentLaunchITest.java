package dev.schedpolicy.engine.launch;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Launches at the same moment: eight threads of one engine, both mechanisms, with and without cgroups; and two
 * engine JVMs sharing one state directory and one cgroup parent (each sweeps the other's live handshakes and
 * groups only if it wrongly took them for stale). Each launch checks from inside its command that it got its
 * own policy ({@link CheckedLaunch}); afterwards no group, handshake or process is left.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class ConcurrentLaunchITest {
    private static final int THREADS = 8;
    private static final int ROUNDS = 12;

    @TempDir
    Path state;

    @Test
    void shouldKeepEightSimultaneousLaunchesOfOneEngineApart() throws Exception {
        LaunchConfig config = LaunchConfig.defaults().withStateDir(state);
        CyclicBarrier together = new CyclicBarrier(THREADS);
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<Integer>> done = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                done.add(pool.submit(() -> {
                    for (int round = 0; round < ROUNDS; round++) {
                        together.await(2, TimeUnit.MINUTES);
                        // launches of one round differ in nice; mechanisms and cgroups differ by thread and round
                        CheckedLaunch.run(config, thread, (thread + round) % 2 == 0,
                                (thread + round) % 3 == 0 ? "+quota50" : (thread + round) % 3 == 1 ? "+cpu-idle" : "");
                    }
                    return ROUNDS;
                }));
            }
            int launches = 0;
            for (Future<Integer> f : done) {
                launches += f.get(8, TimeUnit.MINUTES);
            }
            assertThat(launches).isEqualTo(THREADS * ROUNDS);
        } finally {
            pool.shutdownNow();
        }
        assertThat(CgroupLeftovers.groupsOf(ProcessHandle.current().pid())).isEmpty();
        assertOnlyTheShimIsLeft();
        assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).map(ProcessHandle::pid)).isEmpty();
    }

    @Test
    void shouldShareOneStateDirectoryAndCgroupParentBetweenTwoEngines() throws Exception {
        List<Process> engines = List.of(burst(0), burst(100));
        for (Process e : engines) {
            assertThat(e.waitFor(8, TimeUnit.MINUTES)).isTrue();
            String err = new String(e.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(new String(e.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).as(err).isEqualTo("OK 40\n");
            assertThat(e.exitValue()).isZero();
            assertThat(CgroupLeftovers.groupsOf(e.pid())).as("groups of engine %d", e.pid()).isEmpty();
        }
        assertOnlyTheShimIsLeft();
    }

    private Process burst(final int firstIndex) throws IOException {
        return new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), BurstEngine.class.getName(), state.toString(), "40",
                String.valueOf(firstIndex)).start();
    }

    private void assertOnlyTheShimIsLeft() throws IOException {
        try (Stream<Path> s = Files.list(state)) {
            assertThat(s.map(p -> p.getFileName().toString())).as("state directory").singleElement().asString()
                    .startsWith("park-shim-").endsWith(".sh");
        }
    }
}
