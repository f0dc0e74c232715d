package dev.schedpolicy.engine.launch;

import dev.schedpolicy.engine.policy.Policy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One launch whose command reports what the kernel gave it (its own nice and cpu cgroup, read inside the
 * command), checked against what this launch asked for. Launches that run at once ask for different nice
 * values, so a crossed handshake (a release applied to another launch's PID) shows as a wrong nice, a wrong
 * group or a PID that is not the launched process; a lost release as a shim that exits 125; a double one as
 * an exception.
 */
final class CheckedLaunch {
    private static final List<String> REPORT = List.of("sh", "-c",
            "read -r a b c d e f g h i j k l m n o p q r s rest </proc/self/stat; echo \"nice=$s\";"
                    + " grep -E '^[0-9]+:(cpu|cpu,[^:]*|[^:]*,cpu):|^0::' /proc/self/cgroup | head -n 1");

    private CheckedLaunch() {
    }

    /** The nice value launch {@code index} asks for: 10..19, different for launches that run together. */
    static int niceFor(final int index) {
        return 10 + Math.floorMod(index, 10);
    }

    /**
     * @param parked whether to use park-and-release (else the policy thread)
     * @param groupPart "" or a cgroup part such as "+quota50"
     */
    static void run(final LaunchConfig config, final int index, final boolean parked, final String groupPart) throws Exception {
        int nice = niceFor(index);
        Policy policy = Policy.parse("batch+nice" + nice + groupPart);
        if (parked) {
            Handshake h = ParkAndRelease.prepare(policy, config);
            List<String> argv = new ArrayList<>(h.commandPrefix());
            argv.addAll(REPORT);
            Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
            try (PolicedLaunch l = h.release(Duration.ofSeconds(30))) {
                assertThat(l.pid()).as("released PID of launch %d", index).isEqualTo(p.pid());
                check(index, nice, p, l);
            }
        } else {
            try (PolicedProcess l = new PolicyThreadLauncher(config).start(new ProcessBuilder(REPORT).redirectErrorStream(true), policy)) {
                check(index, nice, l.process(), l);
            }
        }
    }

    private static void check(final int index, final int nice, final Process p, final PolicedLaunch l) throws IOException,
            InterruptedException {
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as("exit status of launch %d (125: its release was lost): %s", index, out).isZero();
        p.getOutputStream().close();
        p.getErrorStream().close();
        List<String> lines = out.lines().toList();
        assertThat(lines).as("output of launch %d", index).hasSize(2);
        assertThat(lines.get(0)).as("nice seen by launch %d's own command", index).isEqualTo("nice=" + nice);
        assertThat(l.applied().nice()).as("nice read back for launch %d", index).isEqualTo(nice);
        l.cgroupPath().ifPresent(group -> assertThat(lines.get(1)).as("cpu cgroup of launch %d", index).endsWith(":" + group));
    }
}
