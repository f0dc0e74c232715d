package dev.schedpolicy.jenkins;

import static org.assertj.core.api.Assertions.assertThat;

import hudson.model.Run;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the kernel applied, as the build's own processes saw it: the scripts print
 * {@code STAT:$(cat /proc/self/stat)} and this reads policy (field 41) and nice (field 19) back.
 */
final class KernelView {
    static final String PRINT = "echo \"STAT:$(cat /proc/self/stat)\"";
    /** The whole line: {@code sh -xe} also logs the trace line {@code + echo STAT:...}, which must not count. */
    private static final Pattern LINE = Pattern.compile("^STAT:(\\d+ \\(.*\\) .*)$");

    final int policy;
    final int nice;

    private KernelView(final String stat) {
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
        policy = Integer.parseInt(f[41 - 3]);
        nice = Integer.parseInt(f[19 - 3]);
    }

    /** Every STAT line of the build log, in order. */
    static List<KernelView> all(final Run<?, ?> run) throws Exception {
        List<KernelView> out = new ArrayList<>();
        for (String line : run.getLog(10_000)) {
            Matcher m = LINE.matcher(line);
            if (m.matches()) {
                out.add(new KernelView(m.group(1)));
            }
        }
        assertThat(out).as("STAT lines in the log of " + run).isNotEmpty();
        return out;
    }

    static final int NORMAL = 0;
    static final int BATCH = 3;
    static final int IDLE = 5;
}
