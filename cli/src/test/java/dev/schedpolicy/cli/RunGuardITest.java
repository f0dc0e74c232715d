package dev.schedpolicy.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * {@code schedpolicy run --guard} as a user runs it, in a PID namespace of its own (unshare --pid --mount-proc) so that
 * the caller's busy processes it finds are the two loops this test starts, never another program of the machine's
 * root: they are moved into an idle group while the command runs and read back where they were after.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class RunGuardITest {
    private static final Pattern CPU_LINE = Pattern.compile("^(?:\\d+:[^:]*\\bcpu\\b[^:]*|0:):(\\S+)$", Pattern.MULTILINE);

    @Test
    void shouldLowerTheCallersBusyLoopsWhileTheCommandWaitsAndPutThemBack() throws Exception {
        assumeThat(Files.isWritable(Path.of("/sys/fs/cgroup/cpu/cgroup.procs"))
                || Files.isWritable(Path.of("/sys/fs/cgroup/cgroup.procs")))
                .as("needs root on a writable cpu cgroup hierarchy (the development machine and CI have one)").isTrue();
        assumeThat(Files.isExecutable(Path.of("/usr/bin/unshare"))).as("util-linux unshare").isTrue();
        List<String> cli = new ArrayList<>();
        for (String a : CliRunner.local().schedpolicy("run", "--guard", "--", "taskset", "-c", "0", "sh", "-c",
                "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done; echo \"during $(tr '\\n' ' ' < /proc/$A/cgroup)\";"
                        + " i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done; exit 7")) {
            cli.add("'" + a.replace("'", "'\\''") + "'");
        }
        String script = String.join("\n",
                "taskset -c 0 setsid sh -c 'while :; do :; done' & a=$!; export A=$a",
                "taskset -c 0 setsid sh -c 'while :; do :; done' & b=$!",
                "sleep 0.5",
                "echo \"before $(cat /proc/$a/cgroup | tr '\\n' ' ')\"",
                String.join(" ", cli),
                "echo \"status $?\"",
                "echo \"afterA $(cat /proc/$a/cgroup | tr '\\n' ' ')\"",
                "echo \"afterB $(cat /proc/$b/cgroup | tr '\\n' ' ')\"",
                "echo \"policy $(cut -d' ' -f41 /proc/$a/stat) $(cut -d' ' -f41 /proc/$b/stat)\"",
                "kill $a $b; wait");
        CliRunner.Result r = CliRunner.exec(List.of("unshare", "--pid", "--fork", "--mount-proc", "bash", "-c", script));

        assertThat(r.out()).as(r.err()).contains("status 7");
        String before = cpuGroup(line(r.out(), "before"));
        String during = cpuGroup(line(r.out(), "during"));
        assertThat(during).as(r.out() + r.err()).startsWith("/schedpolicy-").isNotEqualTo(before);
        String home = line(r.out(), "before").substring("before ".length());
        assertThat(line(r.out(), "afterA")).as("back where it was, in every hierarchy").isEqualTo("afterA " + home);
        assertThat(line(r.out(), "afterB")).as("back where it was, in every hierarchy").isEqualTo("afterB " + home);
        assertThat(line(r.out(), "policy")).isEqualTo("policy 0 0");
        assertThat(r.err()).contains("schedpolicy: guard: waited ").contains("schedpolicy: guard: lowered sh ")
                .contains("schedpolicy: guard: everything it lowered is back as it was");
        assertThat(Path.of("/sys/fs/cgroup/cpu" + during)).as("the guard's group is gone").doesNotExist();
    }

    @Test
    void shouldSendHomeWhatAKilledGuardLeftLoweredWhenTheNextGuardStarts() throws Exception {
        assumeThat(Files.isWritable(Path.of("/sys/fs/cgroup/cpu/cgroup.procs"))
                || Files.isWritable(Path.of("/sys/fs/cgroup/cgroup.procs")))
                .as("needs root on a writable cpu cgroup hierarchy (the development machine and CI have one)").isTrue();
        assumeThat(Files.isExecutable(Path.of("/usr/bin/unshare"))).as("util-linux unshare").isTrue();
        String first = quoted(CliRunner.local().schedpolicy("run", "--guard", "--", "taskset", "-c", "0", "sh", "-c",
                ": guarded-loop; while :; do :; done"));
        String next = quoted(CliRunner.local().schedpolicy("run", "--guard", "--", "true"));
        String script = String.join("\n",
                "taskset -c 0 setsid sh -c 'while :; do :; done' & a=$!",
                "taskset -c 0 setsid sh -c 'while :; do :; done' & b=$!",
                "sleep 0.5",
                "echo \"before $(cat /proc/$a/cgroup | tr '\\n' ' ')\"",
                first + " 2>/dev/null & g=$!",
                "for i in $(seq 600); do grep -q '/schedpolicy-' /proc/$a/cgroup && grep -q '/schedpolicy-' /proc/$b/cgroup && break;"
                        + " sleep 0.1; done",
                // the guard's JVM killed as an agent is: nothing of it runs to put the loops back
                "kill -9 $g; wait $g; sleep 0.5",
                "echo \"killed $(cat /proc/$a/cgroup | tr '\\n' ' ')\"",
                "pkill -f guarded-loop",
                next,
                "echo \"status $?\"",
                "echo \"afterA $(cat /proc/$a/cgroup | tr '\\n' ' ')\"",
                "echo \"afterB $(cat /proc/$b/cgroup | tr '\\n' ' ')\"",
                "kill $a $b; wait");
        CliRunner.Result r = CliRunner.exec(List.of("unshare", "--pid", "--fork", "--mount-proc", "bash", "-c", script));

        String killed = cpuGroup(line(r.out(), "killed"));
        assertThat(killed).as("lowered when the guard was killed: " + r.out() + r.err()).startsWith("/schedpolicy-");
        assertThat(r.out()).contains("status 0");
        String home = line(r.out(), "before").substring("before ".length());
        assertThat(line(r.out(), "afterA")).as("back where it was, in every hierarchy").isEqualTo("afterA " + home);
        assertThat(line(r.out(), "afterB")).as("back where it was, in every hierarchy").isEqualTo("afterB " + home);
        assertThat(Path.of("/sys/fs/cgroup/cpu" + killed)).as("the killed guard's group is gone").doesNotExist();
        assertThat(dev.schedpolicy.engine.launch.LaunchConfig.defaults().stateDir().resolve("guard-homes")
                .resolve(Path.of(killed).getFileName() + ".homes")).as("its homes are forgotten").doesNotExist();
    }

    private static String quoted(final List<String> argv) {
        List<String> out = new ArrayList<>();
        for (String a : argv) {
            out.add("'" + a.replace("'", "'\\''") + "'");
        }
        return String.join(" ", out);
    }

    private static String line(final String out, final String prefix) {
        return out.lines().filter(l -> l.startsWith(prefix + " ")).findFirst().orElse(prefix + " (none)").trim();
    }

    private static String cpuGroup(final String cgroupLines) {
        Matcher m = CPU_LINE.matcher(cgroupLines.substring(cgroupLines.indexOf(' ') + 1).trim().replace(' ', '\n'));
        return m.find() ? m.group(1) : "(no cpu line in " + cgroupLines + ")";
    }
}
