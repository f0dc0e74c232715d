package dev.schedpolicy.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * Issue 11 item 5: probe --policy P must answer what run --policy P does, for the same user. A main, so the
 * unprivileged suite runs the whole list in one JVM as that user; prints one line per policy.
 */
public final class ProbeRunAgreement {
    /** Lowering, raising, realtime, cgroup and affinity parts: each answered by the limits, the caller rule or the kernel. */
    static final List<String> POLICIES = List.of("idle", "batch+nice19", "nice10", "io-idle", "io-be7", "fifo:50", "rr", "nice-5",
            "io-rt0", "io-be0", "quota50", "weight50", "cpu-idle", "cpus=0", "cpus=4000", "idle+quota50+warn");

    private ProbeRunAgreement() {
    }

    /** "POLICY probe=CODE run=CODE | probe's verdict line". */
    static List<String> lines(final List<String> policies) {
        List<String> lines = new ArrayList<>();
        for (String policy : policies) {
            StringWriter probeOut = new StringWriter();
            int probe = execute(probeOut, "probe", "--policy", policy);
            int run = execute(new StringWriter(), "run", "--policy", policy, "--", "true");
            String verdict = probeOut.toString().lines().filter(l -> l.startsWith("Policy '")).findFirst().orElse("(no verdict)");
            lines.add(policy + " probe=" + probe + " run=" + run + " | " + verdict);
        }
        return lines;
    }

    /** Whether a line shows agreement: probe 0 exactly when run 0, and probe names run's exit code otherwise. */
    static boolean agrees(final String line) {
        int probe = Integer.parseInt(line.replaceAll(".* probe=(\\d+) .*", "$1"));
        int run = Integer.parseInt(line.replaceAll(".* run=(\\d+) .*", "$1"));
        if (run == 0) {
            return probe == 0 && line.contains("can be applied here");
        }
        return probe == ExitCodes.POLICY_NOT_APPLIED && line.contains(run == ExitCodes.USAGE ? "run refuses it (exit 2)" : "run would exit " + run);
    }

    private static int execute(final StringWriter out, final String... args) {
        var cl = Main.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(out, true));
        return cl.execute(args);
    }

    public static void main(final String[] args) {
        lines(List.of(args)).forEach(System.out::println);
    }
}
