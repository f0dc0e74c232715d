package dev.schedpolicy.engine.agent;

import dev.schedpolicy.engine.bench.BenchOptions;
import dev.schedpolicy.engine.policy.InvalidPolicyException;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AgentBenchmarkTest {
    private static AgentBenchmark.Request request(final Boolean quick, final String policies, final String loads) {
        return new AgentBenchmark.Request("seed-cpu-looper", quick, policies, loads, null, null, null, null);
    }

    @Test
    void shouldRefuseCgroupBenchmarkPoliciesWhenTheAdministratorDisallowsCgroups() {
        AgentLimits noCgroups = new AgentLimits(false, 0, false, 0);
        assertThatThrownBy(() -> AgentBenchmark.options(request(true, "default,quota50,cpu-idle", null), noCgroups,
                new BenchOptions.Cancellation()))
                .isInstanceOf(InvalidPolicyException.class)
                .hasMessageContaining("benchmark policy 'quota50' is not allowed here")
                .hasMessageContaining("disabled by the administrator");
    }

    @Test
    void shouldRefuseABenchmarkPolicyBelowTheMinimumNice() {
        assertThatThrownBy(() -> AgentBenchmark.checkLimits(List.of("nice-5"), AgentLimits.DEFAULT, 2))
                .hasMessageContaining("benchmark policy 'nice-5'").hasMessageContaining("0..19");
        AgentBenchmark.checkLimits(List.of("default", "split", "idle", "quota50"), AgentLimits.DEFAULT, 2);
    }

    @Test
    void shouldFollowTheCliPresetRule() {
        BenchOptions.Cancellation c = new BenchOptions.Cancellation();
        assertThat(AgentBenchmark.options(request(null, null, null), AgentLimits.DEFAULT, c).presetLabel()).startsWith("quick");
        assertThat(AgentBenchmark.options(request(false, null, null), AgentLimits.DEFAULT, c).presetLabel()).startsWith("full");
        assertThat(AgentBenchmark.options(request(null, null, "1"), AgentLimits.DEFAULT, c).presetLabel()).startsWith("full");
        assertThat(AgentBenchmark.options(request(true, null, "1"), AgentLimits.DEFAULT, c).presetLabel()).startsWith("quick");
    }

    @Test
    void shouldRejectBadMatrixArgumentsWhenTheStepIsWritten() {
        assertThatThrownBy(() -> request(null, null, "1,x")).hasMessageContaining("'x' is not a number");
        assertThatThrownBy(() -> request(null, null, "65")).hasMessageContaining("0 to 64");
        assertThatThrownBy(() -> new AgentBenchmark.Request("s", null, null, null, 0, null, null, null))
                .hasMessageContaining("repetitions must be 1..100");
        assertThatThrownBy(() -> request(null, "idle,nice99", null)).hasMessageStartingWith("policies: ");
    }

    @Test
    void shouldSayWhetherACancelReachedARunningBenchmark() {
        assertThat(AgentBenchmark.cancel("no-such-run", "aborted")).isFalse();
    }

    @Test
    void shouldNameTheEngineAndHdrHistogramCodeForTheWorkloadJvms() {
        assertThat(AgentBenchmark.workloadJars()).hasSize(2).allSatisfy(f -> assertThat(f).exists());
    }
}
