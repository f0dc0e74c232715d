package dev.schedpolicy.engine.launch.jmh;

import dev.schedpolicy.engine.agent.LaunchRequest;
import dev.schedpolicy.engine.agent.HandshakeRegistry;
import dev.schedpolicy.engine.agent.PreparedLaunch;
import dev.schedpolicy.engine.launch.Handshake;
import dev.schedpolicy.engine.launch.LaunchConfig;
import dev.schedpolicy.engine.launch.ParkAndRelease;
import dev.schedpolicy.engine.launch.PolicedLaunch;
import dev.schedpolicy.engine.launch.PolicedProcess;
import dev.schedpolicy.engine.launch.PolicyThreadLauncher;
import dev.schedpolicy.engine.policy.Policy;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Wall time of one complete launch of /bin/true, from start() to its exit status, plain and policed through
 * both mechanisms. The policed launches include everything a real one does: limits check, the cgroup (when
 * the policy has a quota), the syscalls, the read-back from /proc and removing the group afterwards. The
 * added overhead is the difference of the medians against {@link #plain()}.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 3)
@Fork(value = 2, jvmArgsAppend = {"-Xms256m", "-Xmx256m"})
public class LaunchOverhead {
    private static final List<String> TRUE = List.of("/bin/true");
    private static final Duration RELEASE_TIMEOUT = Duration.ofSeconds(10);

    /** What the policed benchmarks share; the plain one does not use it, so it runs once, not per policy. */
    @State(Scope.Benchmark)
    public static class Policed {
        @Param({"batch+nice19+io-idle", "batch+nice19+io-idle+quota50"})
        public String policy;

        Policy parsed;
        LaunchConfig config;
        PolicyThreadLauncher launcher;
        private Path stateDir;

        HandshakeRegistry registry;

        @Setup(Level.Trial)
        public void setUp() throws IOException {
            parsed = Policy.parse(policy);
            stateDir = Files.createTempDirectory("schedpolicy-jmh-");
            config = LaunchConfig.defaults().withStateDir(stateDir.resolve("state"));
            launcher = new PolicyThreadLauncher(config);
            registry = new HandshakeRegistry(config, Path.of("/proc"), Duration.ofHours(1));
        }

        @TearDown(Level.Trial)
        public void tearDown() throws IOException {
            registry.close();
            try (Stream<Path> walk = Files.walk(stateDir)) {
                for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    @Benchmark
    public int plain() throws Exception {
        return finish(new ProcessBuilder(TRUE).start());
    }

    @Benchmark
    public int policyThread(final Policed s) throws Exception {
        try (PolicedProcess p = s.launcher.start(new ProcessBuilder(TRUE), s.parsed)) {
            return finish(p.process());
        }
    }

    @Benchmark
    public int parkAndRelease(final Policed s) throws Exception {
        try (Handshake h = ParkAndRelease.prepare(s.parsed, s.config)) {
            List<String> argv = new ArrayList<>(h.commandPrefix());
            argv.addAll(TRUE);
            Process p = new ProcessBuilder(argv).start();
            try (PolicedLaunch launch = h.release(RELEASE_TIMEOUT)) {
                return finish(p);
            }
        }
    }

    /**
     * What a Jenkins launch costs on the agent (the plugin's Prepare and Release calls, without their two
     * remoting round trips): the agent's registry parks the launch, someone else starts the prefixed
     * command, the registry applies, verifies and releases it; the block's groups are removed at its end.
     */
    @Benchmark
    public int agentPrepareAndRelease(final Policed s) throws Exception {
        PreparedLaunch prepared = s.registry.prepare(LaunchRequest.of("jmh", s.parsed.toCompact())
                .pendingFor(Duration.ofSeconds(30)));
        Process p = new ProcessBuilder(prepared.prefix(TRUE)).start();
        s.registry.release(prepared.id(), RELEASE_TIMEOUT);
        int status = finish(p);
        s.registry.finishBlock("jmh");
        return status;
    }

    /** Waits for the exit and closes the pipes, the same for every variant, so no descriptor waits for GC. */
    private static int finish(final Process p) throws Exception {
        int status = p.waitFor();
        p.getOutputStream().close();
        p.getInputStream().close();
        p.getErrorStream().close();
        if (status != 0) {
            throw new IllegalStateException("/bin/true exited " + status);
        }
        return status;
    }
}
