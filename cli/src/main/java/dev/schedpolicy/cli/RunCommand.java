package dev.schedpolicy.cli;

import dev.schedpolicy.engine.guard.GuardSettings;
import dev.schedpolicy.engine.launch.LaunchConfig;
import dev.schedpolicy.engine.launch.PolicedProcess;
import dev.schedpolicy.engine.launch.PolicyThreadLauncher;
import dev.schedpolicy.engine.policy.Policy;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code schedpolicy run [options] -- COMMAND [ARGS...]}. Its model is declared in code rather than with picocli
 * annotations: on a fresh JVM the JDK generates a proxy class for each annotation type it reads (Command, Option,
 * Parameters, Mixin, Spec and their meta-annotations), which cost about 25 ms of a 125 ms {@code run}
 * (docs/startup.md). The commands off the wrapper's hot path keep their annotations.
 */
public final class RunCommand implements Callable<Integer> {
    private final CommandSpec spec = CommandSpec.wrapWithoutInspection(this);

    RunCommand() {
        spec.usageMessage()
                .header("Run a command, and every process it starts, under a policy.", "")
                .description("Run COMMAND so that its first instruction, and every process it starts, runs",
                        "under the policy.",
                        "Options end at COMMAND. stdin, stdout and stderr are the command's own;",
                        "signals sent to schedpolicy are forwarded. The exit status is the command's",
                        "(128+N when it died from signal N); 125 only when the policy could not be",
                        "applied, and then the command did not run. The command never gets a higher",
                        "priority than its caller has, unless root passes --allow-raise.")
                .footer("%nExamples:", "  schedpolicy run --policy idle -- make -j8",
                        "  schedpolicy run --policy batch --nice 19 --io idle -- ./gradlew build",
                        "  schedpolicy run --cpu-quota 50 --verify -- cc -O2 big.c",
                        "  schedpolicy run --container --cpu-idle -- docker run --rm gcc:13 make -j4",
                        "  schedpolicy run --guard -- ./run-tests");
        CodedOptions.addStandardHelp(spec);
        PolicyOptions.declare(spec);
        spec.addOption(CodedOptions.flag("--verify", "print what the kernel reports for the command (on stderr)"));
        spec.addOption(CodedOptions.flag("--verbose", "print warnings in full (by default each is one short line)"));
        spec.addOption(CodedOptions.flag("--measure", "at the end, print on stderr the command's CPU (its whole process tree),"
                + " the share of its runnable time it waited for a CPU, and its wall time"));
        spec.addOption(CodedOptions.flag("--guard", "while COMMAND runs, whenever it waits for a CPU more than the threshold, your"
                + " other busy processes yield to it (moved into an idle cgroup, or SCHED_IDLE); put back when it ends or"
                + " stops asking for a CPU; a report on stderr at the end"));
        spec.addOption(CodedOptions.number("--guard-threshold", "PERCENT", "with --guard: act when COMMAND waited more than"
                + " this share of its runnable time in a 50 ms period (1..99, default 10)"));
        spec.addOption(CodedOptions.flag("--container", "COMMAND is a docker|podman run|create|build: put the container it starts under"
                + " the policy's cgroup parts (--cgroup-parent, --cpu-shares, --cpus, --cpuset-cpus) instead of policing the client"));
        spec.addOption(CodedOptions.flag("--no-client-wrappers", "run the docker and podman lines of COMMAND's processes as given;"
                + " by default their container starts are placed like --container's (the clients are wrapped on COMMAND's PATH)"));
        spec.addPositional(PositionalParamSpec.builder().paramLabel("COMMAND").arity("1..*").required(true).type(List.class)
                .auxiliaryTypes(String.class).description("the command and its arguments (a -- before it is optional)").build());
    }

    /** The model to add as the {@code run} subcommand. */
    CommandSpec spec() {
        return spec;
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        PolicyOptions options = PolicyOptions.parsed(spec);
        List<String> command = spec.positionalParameters().get(0).getValue();
        Policy policy = options.toPolicy();
        PrintWriter err = spec.commandLine().getErr();
        boolean measure = CodedOptions.isSet(spec, "--measure");
        if (measure && CodedOptions.isSet(spec, "--container")) {
            throw new UsageException("--measure and --container exclude each other: the container's processes are the"
                    + " runtime's children, not the command's");
        }
        boolean guard = CodedOptions.isSet(spec, "--guard");
        if (!guard && CodedOptions.value(spec, "--guard-threshold") != null) {
            throw new UsageException("--guard-threshold needs --guard");
        }
        if (guard && CodedOptions.isSet(spec, "--container")) {
            throw new UsageException("--guard and --container exclude each other: the container's processes are the"
                    + " runtime's children, not the command's, so their wait cannot be read");
        }
        GuardSettings guardSettings = guard ? GuardedRun.settings(CodedOptions.value(spec, "--guard-threshold")) : null;
        if (CodedOptions.isSet(spec, "--container")) {
            return ContainerRun.run(command, policy, options, CodedOptions.isSet(spec, "--verify"), warnings(err), err);
        }
        LaunchConfig config = options.launchConfig();
        RunWarnings warnings = warnings(err);
        if (!policy.isDefault() && ContainerRun.startsContainer(command)) {
            warnings.print(List.of(ContainerRun.clientOnlyWarning(command)));
        }
        ProcessBuilder builder = StandardStreams.apply(new ProcessBuilder(command));
        boolean verify = CodedOptions.isSet(spec, "--verify");
        try (SignalForwarder forwarder = SignalForwarder.install(config.kernel());
                MeasuredRun measured = measure ? MeasuredRun.open(command, policy) : null;
                ClientWrappers wrappers = CodedOptions.isSet(spec, "--no-client-wrappers") ? null
                        : ClientWrappers.open(policy, options, config, verify, warnings, err).orElse(null)) {
            PolicedProcess launched;
            try {
                if (measured != null) {
                    measured.prefix(builder);
                }
                if (wrappers != null) {
                    wrappers.prefix(builder);
                }
                launched = new PolicyThreadLauncher(config).start(builder, policy);
            } catch (IOException e) {
                return reportStartFailure(command.get(0), e, err);
            }
            try (PolicedProcess p = launched) {
                forwarder.forwardTo(p.pid());
                warnings.print(p.warnings());
                if (verify) {
                    err.println("schedpolicy: kernel reports " + p.applied().describe());
                }
                err.flush();
                if (measured != null) {
                    measured.attach(p.pid());
                    if (policy.cpuQuotaPercent().isPresent()) {
                        measured.throttledBy(p);
                    }
                }
                try (GuardedRun guarded = guard ? GuardedRun.start(p.pid(), config, guardSettings, err) : null) {
                    int status = p.process().waitFor();
                    if (guarded != null) {
                        guarded.report(err);
                    }
                    if (measured != null) {
                        measured.report(err);
                    }
                    return status;
                }
            }
        }
    }

    private RunWarnings warnings(final PrintWriter err) {
        return new RunWarnings(err, CodedOptions.isSet(spec, "--verbose"));
    }

    private static int reportStartFailure(final String command, final IOException e, final PrintWriter err) {
        StartFailure failure = StartFailure.of(command, e);
        err.println("schedpolicy: " + failure.message());
        return failure.exitCode();
    }
}
