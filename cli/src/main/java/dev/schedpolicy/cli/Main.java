package dev.schedpolicy.cli;

import dev.schedpolicy.engine.launch.PolicyApplyException;
import dev.schedpolicy.engine.policy.InvalidPolicyException;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/** The {@code schedpolicy} command; declared in code, not with annotations, for the reason given in {@link RunCommand}. */
public final class Main implements Runnable {
    private final CommandSpec spec = CommandSpec.wrapWithoutInspection(this);

    private Main() {
        Map<String, String> exitCodes = new LinkedHashMap<>();
        exitCodes.put("0", "success (run: the command's own status)");
        exitCodes.put("2", "usage error");
        exitCodes.put("3", "bench: stopped early, partial results saved");
        exitCodes.put("125", "the policy could not be applied; the command did not run");
        exitCodes.put("126", "command not executable");
        exitCodes.put("127", "command not found");
        exitCodes.put("128+N", "the command died from signal N");
        spec.name("schedpolicy").versionProvider(new Version());
        spec.usageMessage()
                .description("Run patient work (builds) under lowered Linux CPU and I/O priority beside time-critical work "
                        + "(tests), and measure how much it still interferes.")
                .exitCodeListHeading("%nExit codes:%n")
                .exitCodeList(exitCodes);
        CodedOptions.addStandardHelp(spec);
    }

    /** The subcommands, built only when needed: picocli's model of each costs start-up time. */
    private static final Map<String, Supplier<Object>> SUBCOMMANDS = subcommands();

    private static Map<String, Supplier<Object>> subcommands() {
        Map<String, Supplier<Object>> m = new LinkedHashMap<>();
        m.put("run", () -> new RunCommand().spec());
        m.put("probe", ProbeCommand::commandLine);
        m.put("bench", BenchCommand::new);
        m.put("setup", SetupCommand::new);
        m.put("help", CommandLine.HelpCommand::new);
        return m;
    }

    public static void main(final String[] args) {
        JnaStartup.configure();
        System.exit(commandLine(args).execute(args));
    }

    /** The configured command line with every subcommand; tests, help and the doc generators use it. */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Main().spec);
        SUBCOMMANDS.forEach((name, command) -> cl.addSubcommand(name, command.get()));
        return withHandlers(cl);
    }

    /**
     * For {@code args}: only the named subcommand when the first argument names one (a {@code run} then builds
     * neither bench's nor probe's model), else all of them, so that top-level help and errors list every one.
     */
    public static CommandLine commandLine(final String... args) {
        if (args.length == 0 || !SUBCOMMANDS.containsKey(args[0]) || args[0].equals("help")) {
            return commandLine();
        }
        return withHandlers(new CommandLine(new Main().spec).addSubcommand(args[0], SUBCOMMANDS.get(args[0]).get()));
    }

    /** Set last: picocli gives a setting to the subcommands present when it is set. */
    private static CommandLine withHandlers(final CommandLine cl) {
        cl.setExecutionExceptionHandler(Main::handleExecutionException);
        cl.setParameterExceptionHandler(Main::handleParameterException);
        // as nice, chrt and timeout: everything after the command is the command's, --verify included
        CommandLine run = cl.getSubcommands().get("run");
        if (run != null) {
            run.setStopAtPositional(true);
        }
        return cl;
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a subcommand is needed: run, probe, bench or setup (see --help)");
    }

    /** One clear line instead of a stack trace: a user error is not a crash. */
    private static int handleExecutionException(final Exception e, final CommandLine cl, final CommandLine.ParseResult parsed) {
        PrintWriter err = cl.getErr();
        if (e instanceof InvalidPolicyException) {
            err.println("schedpolicy: " + e.getMessage());
            return ExitCodes.USAGE;
        }
        if (e instanceof PolicyApplyException) {
            err.println("schedpolicy: policy not applied: " + e.getMessage());
            return ExitCodes.POLICY_NOT_APPLIED;
        }
        if (e instanceof UsageException) {
            err.println("schedpolicy: " + e.getMessage());
            return ExitCodes.USAGE;
        }
        err.println("schedpolicy: " + (e.getMessage() == null ? e.toString() : e.getMessage()));
        if (System.getenv("SCHEDPOLICY_DEBUG") != null) {
            e.printStackTrace(err);
        }
        return ExitCodes.SOFTWARE;
    }

    private static int handleParameterException(final CommandLine.ParameterException e, final String[] args) {
        PrintWriter err = e.getCommandLine().getErr();
        err.println("schedpolicy: " + e.getMessage());
        err.println("Try '" + e.getCommandLine().getCommandSpec().qualifiedName() + " --help' for more information.");
        return ExitCodes.USAGE;
    }

    /** The version from the jar manifest when packaged, else "development". */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = Main.class.getPackage().getImplementationVersion();
            return new String[] {"schedpolicy " + (v == null ? "development" : v)};
        }
    }
}
