package dev.schedpolicy.engine.probe;

import dev.schedpolicy.engine.launch.LaunchConfig;
import dev.schedpolicy.engine.policy.Policy;

import java.nio.file.Path;

/** Policy trials one after another until killed, as an agent probing when it is stopped: {@code TrialLoop STATE_DIR}. */
public final class TrialLoop {
    private TrialLoop() {
    }

    public static void main(final String[] args) {
        LaunchConfig config = LaunchConfig.defaults().withStateDir(Path.of(args[0]));
        Policy policy = Policy.parse("batch+nice19");
        System.out.println("LOOPING");
        System.out.flush();
        while (true) {
            PolicyTrial.of(policy, config);
        }
    }
}
