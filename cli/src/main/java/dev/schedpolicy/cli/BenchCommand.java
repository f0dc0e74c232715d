package dev.schedpolicy.cli;

import dev.schedpolicy.engine.bench.BenchListener;
import dev.schedpolicy.engine.bench.BenchOptions;
import dev.schedpolicy.engine.bench.BenchResult;
import dev.schedpolicy.engine.bench.Benchmark;
import dev.schedpolicy.engine.bench.ProcessStarter;
import dev.schedpolicy.engine.report.TextTable;
import dev.schedpolicy.engine.report.WarningGroups;
import dev.schedpolicy.engine.scenario.Matrix;
import dev.schedpolicy.engine.scenario.Topology;
import dev.schedpolicy.engine.scenario.Scenario;
import dev.schedpolicy.engine.scenario.ScenarioCatalog;
import dev.schedpolicy.engine.scenario.ScenarioException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code schedpolicy bench}: the interference benchmark, printing the table and writing report.json/html. */
@Command(name = "bench", mixinStandardHelpOptions = true,
        header = {"Measure how much each policy protects a test job from build load.", ""},
        description = {"Measure how much each policy protects a victim job from background load.",
            "Writes DIR/report.json and DIR/report.html and prints the table."},
        footer = {"", "Examples:", "  schedpolicy bench --quick",
            "  schedpolicy bench --scenario compile-vs-test \\", "      --victim './mvnw -q test' --background 'make -j4'",
            "  schedpolicy bench --scenario javac-background --topology outside-agent",
            "  schedpolicy bench --list"})
public final class BenchCommand implements Callable<Integer> {
    /** Exit code when the run ended early (failure or Ctrl-C) and only partial results were saved. */
    public static final int EXIT_PARTIAL = 3;

    @Spec
    private CommandLine.Model.CommandSpec spec;

    @Option(names = "--scenario", paramLabel = "NAME|FILE", description = "Built-in scenario name or a .scenario file (default: ${DEFAULT-VALUE}).",
            defaultValue = "seed-cpu-looper")
    private String scenario;

    @Option(names = "--quick", description = "The scenario's quick preset (seed-cpu-looper: default, idle, cpu-idle, guard x loads 1, 2"
            + " x 3 repetitions, for the executors of the same agent and the neighbours outside it: about 2.5 minutes on 2 CPUs)."
            + " The default unless --full, --policies, --loads or --repetitions is given.")
    private boolean quick;

    @Option(names = "--full", description = "The scenario's full matrix instead of the quick preset.")
    private boolean full;

    @Option(names = "--policies", split = ",", paramLabel = "LIST", description = "Policies (rows), e.g. default,nice19,idle,quota50,cpu-idle,guard (guard: the background unlowered,"
            + " the victim guarded as withSchedGuard guards a test step; guard+POLICY, e.g. guard+idle: the"
            + " background under POLICY and the victim guarded).")
    private List<String> policies;

    @Option(names = "--loads", split = ",", paramLabel = "LIST", description = "Loads (columns) as multiples of the CPU count, 0..64, e.g. 0,1,2,4.")
    private List<Double> loads;

    @Option(names = "--repetitions", paramLabel = "N", description = "Measured repetitions per cell.")
    private Integer repetitions;

    @Option(names = "--duration", paramLabel = "MS", description = "Victim's unloaded run time in ms (its work is calibrated to it).")
    private Long durationMs;

    @Option(names = "--topology", paramLabel = "LIST", description = "Where the victim sits relative to the build:"
            + " same-agent (another executor of the same agent: one task group), outside-agent (another service, agent"
            + " or container: its own cgroup), other-session (another login session: its own autogroup), container"
            + " (each background copy in a container of --container-image, the victim on the host); comma-separated"
            + " (default: the preset's). same-group and other-cgroup are read as before.")
    private String topology;

    @Option(names = "--container-image", paramLabel = "IMAGE", description = "Local image for the container topology's"
            + " background copies (the host's JDK and the benchmark's classes are mounted read-only into it).")
    private String containerImage;

    @Option(names = "--cgroup-parent", paramLabel = "DIR", description = "Where cgroup policies (quota, weight, cpu-idle) make"
            + " their groups (default: the machine-wide idle parent made by 'schedpolicy setup' when it exists and is"
            + " usable, else the copy's own group, as under an agent's cgroup).")
    private Path cgroupParent;

    @Option(names = "--idle-parent", paramLabel = "DIR", description = "The machine-wide idle parent to look for"
            + " (default: schedpolicy.idle at the top of the cpu cgroup hierarchy).")
    private Path idleParent;

    @Option(names = "--victim", paramLabel = "CMD", description = "Victim shell command (fixed work; kept %% = unloaded wall / loaded wall).")
    private String victim;

    @Option(names = "--background", paramLabel = "CMD", description = "Background shell command, one copy per load unit, each under the row's policy.")
    private String background;

    @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default: ${DEFAULT-VALUE}).", defaultValue = "bench-report")
    private Path out;

    @Option(names = "--seed", paramLabel = "N", description = "Seed of the randomised cell order (default: random, recorded in the report).")
    private Long seed;

    @Option(names = "--list", description = "List the built-in scenarios and exit.")
    private boolean list;

    private final ProcessStarter starter;

    public BenchCommand() {
        this(null);
    }

    /** @param starter how workloads are launched; null for the engine's default */
    public BenchCommand(final ProcessStarter starter) {
        this.starter = starter;
    }

    @Override
    public Integer call() {
        PrintWriter o = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        ScenarioCatalog catalog = new ScenarioCatalog(Benchmark::validatePolicy);
        if (list) {
            for (String name : ScenarioCatalog.BUILT_IN) {
                try {
                    Scenario s = catalog.load(name);
                    o.printf(Locale.ROOT, "%-20s %s%n", s.name(), s.title());
                } catch (ScenarioException e) {
                    o.printf(Locale.ROOT, "%-20s (cannot load: %s)%n", name, e.getMessage());
                }
            }
            o.flush();
            return 0;
        }
        Scenario sc;
        try {
            sc = catalog.load(scenario);
            if (policies != null) {
                policies.forEach(Benchmark::validatePolicy);
            }
        } catch (ScenarioException | IllegalArgumentException e) {
            return usageError(err, e.getMessage());
        }
        BenchOptions.Cancellation cancel = new BenchOptions.Cancellation();
        BenchOptions options;
        try {
            options = options(sc, cancel);
        } catch (IllegalArgumentException e) {
            return usageError(err, e.getMessage());
        }
        CountDownLatch finished = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            cancel.cancel("Ctrl-C");
            try {
                finished.await(20, TimeUnit.SECONDS); // let the runner kill its processes and save partial results
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "schedpolicy-bench-interrupt");
        Runtime.getRuntime().addShutdownHook(hook);
        BenchResult result;
        try {
            result = Benchmark.run(options, new BenchListener() {
                @Override
                public void started(final String summary, final int runs) {
                    o.println("schedpolicy bench: " + summary + " (" + runs + " runs)");
                    o.flush();
                }

                @Override
                public void progress(final Progress p) {
                    o.println(p.line());
                    o.flush();
                }

                @Override
                public void warning(final String message) {
                    // per-cell warnings are folded by kind above the table; the report keeps each one
                    if (!WarningGroups.isAboutOneCell(message)) {
                        err.println("warning: " + message);
                        err.flush();
                    }
                }
            });
        } catch (RuntimeException e) {
            err.println("schedpolicy bench: " + e.getMessage());
            err.flush();
            return 1;
        } finally {
            finished.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // already shutting down (Ctrl-C): the hook is running and waits for us
            }
        }
        o.println();
        o.print(TextTable.render(result.report()));
        o.println();
        List<String> files = new ArrayList<>();
        result.jsonFile().ifPresent(f -> files.add(f.toString()));
        result.htmlFile().ifPresent(f -> files.add(f.toString()));
        o.println("Report: " + String.join(" and ", files));
        o.flush();
        if (result.report().partial()) {
            err.println("schedpolicy bench: stopped early (" + result.report().partialReason()
                    + "); partial results saved and marked partial");
            err.flush();
            return EXIT_PARTIAL;
        }
        return 0;
    }

    private static int usageError(final PrintWriter err, final String message) {
        err.println("schedpolicy bench: " + message);
        err.flush();
        return ExitCodes.USAGE;
    }

    /** The run's options; the preset rule and the matrix limits are the engine's {@link Matrix}'s. */
    private BenchOptions options(final Scenario sc, final BenchOptions.Cancellation cancel) {
        Matrix.Preset preset = Matrix.Preset.resolve(quick, full,
                policies != null || loads != null || repetitions != null);
        BenchOptions.Builder b = BenchOptions.builder(sc).preset(preset).outDir(out).policies(policies).loads(loads)
                .topologies(topology == null ? null : Topology.parseList(topology)).cgroupParent(cgroupParent)
                .idleParent(idleParent)
                .containerImage(containerImage)
                .victimCommand(victim).backgroundCommand(background).cancellation(cancel);
        if (repetitions != null) {
            b.repetitions(repetitions);
        }
        if (durationMs != null) {
            b.durationMs(durationMs);
        }
        if (seed != null) {
            b.seed(seed);
        }
        if (starter != null) {
            b.starter(starter);
        }
        return b.build();
    }
}
