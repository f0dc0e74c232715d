package dev.schedpolicy.engine.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23 item 5: the benchmark step starts the author's commands on the node, so they are floored by the node's
 * default like every launch of a build: a victim and a {@code default} row at nice 0 on a node whose floor is nice 12
 * escaped it.
 */
@EnabledOnOs(OS.LINUX)
class AgentBenchmarkFloorITest {
    @TempDir
    Path dir;

    @Test
    void shouldRunEveryCommandOfTheBenchmarkUnderTheNodesFloorAndSaySo() throws Exception {
        Path victim = dir.resolve("victim");
        Path background = dir.resolve("background");
        // field 19 of /proc/PID/stat is nice: awk reads its own, inherited from the shell the benchmark started
        AgentBenchmark.Request request = new AgentBenchmark.Request("compile-vs-test", null, "default,nice15", "1", 1,
                "awk '{print $19}' /proc/self/stat >> " + victim, "awk '{print $19}' /proc/self/stat >> " + background
                        + "; sleep 5", null);
        List<String> log = new ArrayList<>();
        String json = AgentBenchmark.run("floor-1", request, AgentLimits.DEFAULT, "nice12", log::add);
        assertThat(Files.readAllLines(victim)).isNotEmpty().allSatisfy(n -> assertThat(n).isEqualTo("12"));
        assertThat(Files.readAllLines(background)).isNotEmpty().allSatisfy(n -> assertThat(Integer.parseInt(n)).isIn(12, 15))
                .contains("12", "15");
        assertThat(log).anySatisfy(l -> assertThat(l).contains("the node's default policy 'nice12' is a floor")
                .contains("default as nice12").contains("nice15 as nice15"));
        assertThat(json).contains("the node's default policy 'nice12' is a floor").contains("nice 12");
    }
}
