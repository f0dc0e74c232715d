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
        description = {"Run COMMAND so that its first instruction, and every process it starts, runs under the policy.",
                "stdin, stdout and stderr are the command's own; SIGINT, SIGTERM and SIGHUP are forwarded;",
                "the exit status is the command's (128+N when it died from signal N)."},
        footer = {"%nExamples:", "  schedpolicy run --policy idle -- make -j8",
                "  schedpolicy run --policy batch --nice 19 --io idle -- ./gradlew build",
                "  schedpolicy run --cpu-quota 50 --verify -- cc -O2 big.c"})
public final class RunCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    PolicyOptionsMixin options;

    @Option(names = "--verify", description = "print what the kernel reports for the command (on stderr)")
    boolean verify;

    @Parameters(paramLabel = "COMMAND", arity = "1..*", description = "the command and its arguments (put -- before it)")
    List<String> command;

    @Override
    public Integer call() throws IOException, InterruptedException {
        Policy policy = options.policyOptions.toPolicy();
        LaunchConfig config = options.policyOptions.launchConfig();
        PrintWriter err = spec.commandLine().getErr();
        ProcessBuilder builder = new ProcessBuilder(command).inheritIO();
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
        String message = String.valueOf(e.getMessage());
        if (message.contains("error=2,")) {
            err.println("schedpolicy: command not found: " + command.get(0));
            return ExitCodes.NOT_FOUND;
        }
        if (message.contains("error=13,")) {
            err.println("schedpolicy: command not executable: " + command.get(0) + " (permission denied)");
            return ExitCodes.NOT_EXECUTABLE;
        }
        err.println("schedpolicy: cannot start " + command.get(0) + ": " + message);
        return ExitCodes.NOT_EXECUTABLE;
    }
}
