package dev.schedpolicy.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Options for the commands declared in code rather than with annotations (see {@link RunCommand}), and their
 * parsed values. {@code -h/--help} and {@code -V/--version} are here because picocli's own
 * mixinStandardHelpOptions is itself read from annotations.
 */
final class CodedOptions {
    private CodedOptions() {
    }

    static CommandSpec addStandardHelp(final CommandSpec spec) {
        spec.addOption(OptionSpec.builder("-h", "--help").usageHelp(true).description("Show this help message and exit.").build());
        spec.addOption(OptionSpec.builder("-V", "--version").versionHelp(true).description("Print version information and exit.")
                .build());
        return spec;
    }

    static OptionSpec text(final String name, final String label, final String description) {
        return OptionSpec.builder(name).paramLabel(label).type(String.class).description(description).build();
    }

    static OptionSpec flag(final String name, final String description) {
        return OptionSpec.builder(name).type(boolean.class).description(description).build();
    }

    /** A whole number in ASCII digits ({@link AsciiInteger}). */
    static OptionSpec number(final String name, final String label, final String description) {
        return OptionSpec.builder(name).paramLabel(label).type(Integer.class).converters(new AsciiInteger())
                .description(description).build();
    }

    /** The parsed value of option {@code name}, null when it was not given. */
    static <T> T value(final CommandSpec spec, final String name) {
        return spec.findOption(name).getValue();
    }

    static boolean isSet(final CommandSpec spec, final String name) {
        return Boolean.TRUE.equals(spec.findOption(name).getValue());
    }
}
