package dev.schedpolicy.cli;

import picocli.CommandLine.ArgGroup;

/** Groups the policy options under their own heading in --help. */
final class PolicyOptionsMixin {
    @ArgGroup(exclusive = false, heading = "%nPolicy:%n")
    PolicyOptions policyOptions = new PolicyOptions();
}
