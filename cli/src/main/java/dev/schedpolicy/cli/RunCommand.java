package dev.schedpolicy.cli;

import dev.schedpolicy.engine.launch.LaunchConfig;
import dev.schedpolicy.engine.launch.PolicedProcess;
import dev.schedpolicy.engine.launch.PolicyThreadLauncher;
import dev.schedpolicy.engine.policy.Policy;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code schedpolicy run [options] -- COMMAND [ARGS...]}. */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = {"Run COMMAND so that its first instruction, and every process it starts, runs",
                "under the policy.",
                "Options end at COMMAND. stdin, stdout and stderr are the command's own;",
                "signals sent to schedpolicy are forwarded. The exit status is the command's",
                "(128+N when it died from signal N); 125 only when the policy could not be",
                "applied, and then the command did not run. The command never gets a higher",
                "priority than its caller has, unless root passes --allow-raise."},
        footer = {"%nExamples:", "  schedpolicy run --policy idle -- make -j8",
                "  schedpolicy run --policy batch --nice 19 --io idle -- ./gradlew build",
                "  schedpolicy run --cpu-quota 50 --verify -- cc -O2 big.c"})
public final class RunCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    PolicyOptions options;

    @Option(names = "--verify", description = "print what the kernel reports for the command (on stderr)")
    boolean verify;

    @Parameters(paramLabel = "COMMAND", arity = "1..*", description = "the command and its arguments (a -- before it is optional)")
    List<String> command;

    @Override
    public Integer call() throws IOException, InterruptedException {
        Policy policy = options.toPolicy();
        LaunchConfig config = options.launchConfig();
        PrintWriter err = spec.commandLine().getErr();
        ProcessBuilder builder = StandardStreams.apply(new ProcessBuilder(command));
        try (SignalForwarder forwarder = SignalForwarder.install(config.kernel())) {
            PolicedProcess launched;
            try {
                launched = new PolicyThreadLauncher(config).start(builder, policy);
            } catch (IOException e) {
                return reportStartFailure(e, err);
            }
            try (PolicedProcess p = launched) {
                forwarder.forwardTo(p.pid());
                p.warnings().forEach(w -> err.println("schedpolicy: warning: " + w));
                if (verify) {
                    err.println("schedpolicy: kernel reports " + p.applied().describe());
                }
                err.flush();
                return p.process().waitFor();
            }
        }
    }

    private int reportStartFailure(final IOException e, final PrintWriter err) {
        StartFailure failure = StartFailure.of(command.get(0), e);
        err.println("schedpolicy: " + failure.message());
        return failure.exitCode();
    }
}
