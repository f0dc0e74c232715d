package dev.schedpolicy.cli;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class MainTest {
    @Test
    void shouldBuildOnlyTheNamedSubcommandForARun() {
        assertThat(Main.commandLine("run", "--policy", "idle", "--", "true").getSubcommands()).containsOnlyKeys("run");
        assertThat(Main.commandLine("probe").getSubcommands()).containsOnlyKeys("probe");
    }

    @Test
    void shouldBuildEverySubcommandForTopLevelHelpErrorsAndTheHelpCommand() {
        for (String[] args : new String[][] {{}, {"--help"}, {"frobnicate"}, {"help", "run"}}) {
            assertThat(Main.commandLine(args).getSubcommands()).as(String.join(" ", args))
                    .containsOnlyKeys("run", "probe", "bench", "setup", "help");
        }
    }

    @Test
    void shouldListEverySubcommandInTopLevelHelp() {
        CliRun r = CliRun.of("--help");
        assertThat(r.code()).isZero();
        assertThat(r.out()).contains("  run ", "  probe ", "  bench ", "  setup ", "  help ");
    }
}
