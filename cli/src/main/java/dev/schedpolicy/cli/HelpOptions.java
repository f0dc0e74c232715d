package dev.schedpolicy.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code -h/--help} and {@code -V/--version} for the commands declared in code: picocli's own
 * mixinStandardHelpOptions is read from annotations, which those commands avoid (see {@link RunCommand}).
 */
final class HelpOptions {
    private HelpOptions() {
    }

    static CommandSpec addTo(final CommandSpec spec) {
        spec.addOption(OptionSpec.builder("-h", "--help").usageHelp(true).description("Show this help message and exit.").build());
        spec.addOption(OptionSpec.builder("-V", "--version").versionHelp(true).description("Print version information and exit.")
                .build());
        return spec;
    }
}
