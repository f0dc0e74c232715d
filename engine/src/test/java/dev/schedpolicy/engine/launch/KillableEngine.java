package dev.schedpolicy.engine.launch;

import dev.schedpolicy.engine.policy.Policy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * An engine in a JVM of its own, for tests that SIGKILL it mid-launch. Prints one line once it is where the
 * test wants to kill it, then waits to be killed:
 * <pre>
 *   KillableEngine thread|released|parked|once STATE_DIR POLICY COMMAND...
 * </pre>
 * {@code thread}: policy-thread launch, then {@code RUNNING pid}; {@code released}: park, release, then
 * {@code RUNNING pid}; {@code parked}: park without releasing, then {@code PARKED pid} (the shim's PID);
 * {@code once}: park, release, wait for the command and exit with its status (a normal next start).
 */
public final class KillableEngine {
    private KillableEngine() {
    }

    public static void main(final String[] args) throws Exception {
        String mode = args[0];
        LaunchConfig config = LaunchConfig.defaults().withStateDir(Path.of(args[1]));
        Policy policy = Policy.parse(args[2]);
        List<String> command = List.of(args).subList(3, args.length);
        switch (mode) {
            case "thread" -> {
                PolicedProcess p = new PolicyThreadLauncher(config).start(new ProcessBuilder(command).inheritIO(), policy);
                announce("RUNNING " + p.pid());
            }
            case "released", "parked", "once" -> {
                Handshake h = ParkAndRelease.prepare(policy, config);
                List<String> argv = new ArrayList<>(h.commandPrefix());
                argv.addAll(command);
                Process p = new ProcessBuilder(argv).inheritIO().start();
                if (mode.equals("parked")) {
                    announce("PARKED " + p.pid());
                }
                try (PolicedLaunch l = h.release()) {
                    if (mode.equals("once")) {
                        System.exit(p.waitFor());
                    }
                    announce("RUNNING " + l.pid());
                }
            }
            default -> throw new IllegalArgumentException("mode must be thread, released, parked or once, not " + mode);
        }
    }

    /** Tells the test where we are, then blocks until killed (a parked launch stays parked meanwhile). */
    private static void announce(final String line) throws InterruptedException {
        System.out.println(line);
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
