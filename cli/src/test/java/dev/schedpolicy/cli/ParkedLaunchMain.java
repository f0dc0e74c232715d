package dev.schedpolicy.cli;

import dev.schedpolicy.engine.launch.Handshake;
import dev.schedpolicy.engine.launch.LaunchConfig;
import dev.schedpolicy.engine.launch.ParkAndRelease;
import dev.schedpolicy.engine.launch.PolicedLaunch;
import dev.schedpolicy.engine.policy.Policy;

import java.util.ArrayList;
import java.util.List;

/**
 * One park-and-release launch with the engine's default state directory, as the Jenkins agent makes them:
 * {@code ParkedLaunchMain POLICY COMMAND...}. Prints the state directory on stderr; exits with the command's status.
 */
public final class ParkedLaunchMain {
    private ParkedLaunchMain() {
    }

    public static void main(final String[] args) throws Exception {
        LaunchConfig config = LaunchConfig.defaults();
        System.err.println("state directory: " + config.stateDir());
        Process process;
        try (Handshake handshake = ParkAndRelease.prepare(Policy.parse(args[0]), config)) {
            List<String> argv = new ArrayList<>(handshake.commandPrefix());
            argv.addAll(List.of(args).subList(1, args.length));
            process = new ProcessBuilder(argv).inheritIO().start();
            try (PolicedLaunch launch = handshake.release()) {
                System.err.println("released: " + launch.applied().describe());
                System.exit(process.waitFor());
            }
        }
    }
}
