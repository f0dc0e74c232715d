package dev.schedpolicy.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.schedpolicy.engine.cgroup.CgroupSystem;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

/** {@code schedpolicy setup} makes, checks and removes an idle parent; the probe finds it and recommends it. */
@EnabledOnOs(OS.LINUX)
class SetupCommandITest {
    private record Result(int code, String out, String err) {
    }

    private static Result run(final String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        var cl = Main.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args);
        return new Result(code, out.toString(), err.toString());
    }

    @Test
    void shouldSetUpFindRecommendAndRemoveAnIdleParent() throws Exception {
        CgroupSystem system = CgroupSystem.detect();
        assumeThat(system.cpuHierarchy()).as("a cpu cgroup controller (CI: the v1 cpu hierarchy)").isPresent();
        Path top = system.cpuHierarchy().orElseThrow().dirOf("/");
        assumeThat(Files.isWritable(top)).as("root on the cpu hierarchy (CI runs as root)").isTrue();
        Path parent = top.resolve("schedpolicy-clitest-" + ProcessHandle.current().pid() + ".idle");
        try {
            Result first = run("setup", "--path", parent.toString());
            assertThat(first.code()).as(first.err()).isZero();
            assertThat(first.out()).contains("schedpolicy setup: created " + parent, "schedpolicy setup: set cpu.idle = 1",
                    "--cgroup-parent " + parent);
            Result again = run("setup", "--path", parent.toString());
            assertThat(again.out()).contains(parent + " exists", "cpu.idle is 1");

            Result probe = run("probe", "--idle-parent", parent.toString());
            assertThat(probe.out()).contains("idle parent:    " + parent + ": usable", "RECOMMENDED:    cpu-idle with --cgroup-parent "
                    + parent);
            JsonNode json = new ObjectMapper().readTree(run("probe", "--json", "--idle-parent", parent.toString()).out());
            assertThat(json.path("kernel").asText()).isNotEmpty(); // the probe's own fields stay at the top level
            assertThat(json.path("idleParent").path("usable").asBoolean()).isTrue();
            assertThat(json.path("recommendation").path("policy").asText()).isEqualTo("cpu-idle");
            assertThat(json.path("recommendation").path("cgroupParent").asText()).isEqualTo(parent.toString());

            Result removed = run("setup", "--path", parent.toString(), "--remove");
            assertThat(removed.out()).contains("removed " + parent);
            assertThat(parent).doesNotExist();
        } finally {
            if (Files.exists(parent)) {
                Files.delete(parent);
            }
        }
    }

    @Test
    void shouldRecommendOnePolicyWithItsReasonWithoutAnIdleParent() {
        Result probe = run("probe", "--idle-parent", "/sys/fs/cgroup/cpu/no-such.idle");
        assertThat(probe.out()).contains("idle parent:    /sys/fs/cgroup/cpu/no-such.idle: not set up", "RECOMMENDED:    ",
                "because ");
    }
}
