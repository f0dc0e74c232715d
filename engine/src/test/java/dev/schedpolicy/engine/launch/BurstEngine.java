package dev.schedpolicy.engine.launch;

import java.nio.file.Path;

/**
 * An engine in a JVM of its own making checked launches, for the test of two engines sharing one state
 * directory and cgroup parent: {@code BurstEngine STATE_DIR COUNT FIRST_INDEX}. Exits 0 after printing
 * {@code OK COUNT}, or 1 with the first failure on stderr.
 */
public final class BurstEngine {
    private BurstEngine() {
    }

    public static void main(final String[] args) {
        LaunchConfig config = LaunchConfig.defaults().withStateDir(Path.of(args[0]));
        int count = Integer.parseInt(args[1]);
        int first = Integer.parseInt(args[2]);
        try {
            for (int i = 0; i < count; i++) {
                CheckedLaunch.run(config, first + i, i % 2 == 0, i % 3 == 0 ? "+quota50" : "");
            }
        } catch (Exception | AssertionError e) {
            e.printStackTrace();
            System.exit(1);
        }
        System.out.println("OK " + count);
        System.exit(0);
    }
}
