package dev.schedpolicy.engine.launch;

import dev.schedpolicy.engine.policy.Policy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A library user's JVM: starts one policed command per policy given and keeps it, never closing it, as a program
 * that is stopped from outside would. Prints {@code RUNNING pid...} once all run, then waits to be signalled:
 * <pre>
 *   TerminableEngine STATE_DIR POLICY... -- COMMAND...
 * </pre>
 */
public final class TerminableEngine {
    private TerminableEngine() {
    }

    public static void main(final String[] args) throws Exception {
        LaunchConfig config = LaunchConfig.defaults().withStateDir(Path.of(args[0]));
        List<String> all = List.of(args);
        int dashes = all.indexOf("--");
        List<String> command = all.subList(dashes + 1, all.size());
        StringBuilder line = new StringBuilder("RUNNING");
        List<PolicedProcess> kept = new ArrayList<>();
        for (String policy : all.subList(1, dashes)) {
            PolicedProcess p = new PolicyThreadLauncher(config).start(new ProcessBuilder(command).inheritIO(), Policy.parse(policy));
            kept.add(p);
            line.append(' ').append(p.pid());
        }
        System.out.println(line);
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
