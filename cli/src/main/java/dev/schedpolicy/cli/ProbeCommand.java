package dev.schedpolicy.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.schedpolicy.engine.launch.LaunchConfig;
import dev.schedpolicy.engine.policy.Policy;
import dev.schedpolicy.engine.probe.Capability;
import dev.schedpolicy.engine.probe.PolicyTrial;
import dev.schedpolicy.engine.bench.BenchListener;
import dev.schedpolicy.engine.bench.Benchmark;
import dev.schedpolicy.engine.bench.RecommendationCheck;
import dev.schedpolicy.engine.cgroup.IdleParent;
import dev.schedpolicy.engine.report.BenchReport;
import dev.schedpolicy.engine.report.TextTable;
import dev.schedpolicy.engine.scenario.ScenarioCatalog;
import dev.schedpolicy.engine.probe.AgentAdvice;
import dev.schedpolicy.engine.probe.ProbeReport;
import dev.schedpolicy.engine.probe.Recommendation;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;

/** {@code schedpolicy probe}: what this user can apply here, tried for real. */
@Command(name = "probe", mixinStandardHelpOptions = true,
        header = {"Show which policies this user can apply here, and what they reach.", ""},
        description = {"Try each policy part on a scratch process and report what this user can apply here,",
                "the cgroup layout, the disks' I/O schedulers, autogroup, and which processes per-task",
                "policies would actually protect against. With policy options (as for run), also launch a",
                "scratch process exactly as run would, and exit 125 when run would not apply the policy."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the probe ran; with policy options: run would apply the policy here",
            "2:usage error (bad option or policy syntax)",
            "125:with policy options: run would not apply the policy here, because run refuses it (run exits 2)"
                + " or cannot apply it (run exits 125); the command would not run"})
public final class ProbeCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--json", description = "print the report as JSON")
    boolean json;

    @Option(names = "--recommend", description = "also run a short topology benchmark (about a minute) that checks the"
            + " recommended policy beside default and idle for this agent's executors (same-agent) and its neighbours (outside-agent)")
    boolean recommend;

    @Option(names = "--idle-parent", paramLabel = "DIR", description = "the machine-wide idle parent to look for"
            + " (default: schedpolicy.idle at the top of the cpu cgroup hierarchy)")
    Path idleParent;

    /** probe's model: its annotated options, plus run's policy options (a policy given here is tried exactly as run would apply it). */
    static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new ProbeCommand());
        PolicyOptions.declare(cl.getCommandSpec());
        return cl;
    }

    @Override
    public Integer call() throws IOException {
        PolicyOptions options = PolicyOptions.parsed(spec);
        Policy checked = options.given() ? options.toPolicy() : null;
        LaunchConfig config = options.launchConfig();
        AgentAdvice advice = AgentAdvice.gather(options.cgroupParent(), Optional.ofNullable(idleParent));
        ProbeReport report = advice.probe();
        PrintWriter out = spec.commandLine().getOut();
        PolicyTrial trial = checked == null ? null : PolicyTrial.of(checked, config);
        if (json) {
            out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
                    .writeValueAsString(advice));
        } else {
            printTable(report, out);
            printAdvice(advice, out);
        }
        if (checked != null) {
            PrintWriter where = json ? spec.commandLine().getErr() : out;
            if (trial.applied()) {
                // "applied but has no effect" notes only for a policy run would apply: never beside a refusal
                report.advisoriesFor(checked).forEach(a -> where.println("Note: " + a));
                trial.warnings().forEach(w -> where.println("Note: run would warn: " + w));
            }
            switch (trial.outcome()) {
                case APPLIED -> where.println("Policy '" + checked.toCompact() + "' can be applied here (tried: " + trial.detail() + ").");
                case REFUSED -> where.println("Policy '" + checked.toCompact() + "' cannot be applied here: run refuses it (exit 2): "
                        + trial.detail());
                default -> where.println("Policy '" + checked.toCompact() + "' cannot be applied here: run would exit 125: "
                        + trial.detail());
            }
        }
        if (recommend) {
            PrintWriter where = json ? spec.commandLine().getErr() : out;
            BenchReport check = Benchmark.run(RecommendationCheck.options(new ScenarioCatalog(Benchmark::validatePolicy)
                    .load("seed-cpu-looper"), advice.recommendation()).build(), BenchListener.NONE).report();
            where.println();
            where.print(TextTable.verdicts(check));
            if (check.partial()) {
                where.println("The check stopped early: " + check.partialReason());
            }
        }
        out.flush();
        return trial == null || trial.applied() ? ExitCodes.OK : ExitCodes.POLICY_NOT_APPLIED;
    }

    private static void printAdvice(final AgentAdvice advice, final PrintWriter out) {
        IdleParent.Status idle = advice.idleParent();
        out.println();
        out.printf("idle parent:    %s: %s%n", idle.path(), idle.detail());
        // the two questions in bench's order and words, so the probe and the benchmark's verdict say the same
        out.printf("same agent:     %s%n", advice.questions().sameAgent());
        out.printf("outside agent:  %s%n", advice.questions().outsideAgent());
        Recommendation r = advice.recommendation();
        out.printf("RECOMMENDED:    %s%n", r.policy() + (r.cgroupParent() == null ? "" : " with --cgroup-parent " + r.cgroupParent()));
        out.printf("                because %s%n", r.reason());
        if (r.next() != null) {
            out.printf("                to protect more: %s%n", r.next());
        }
    }

    private static void printTable(final ProbeReport r, final PrintWriter out) {
        out.printf("Kernel %s, %d CPUs, uid %d%n%n", r.kernel(), r.cpus(), r.euid());
        out.printf("%-10s %-4s %s%n", "PART", "OK", "DETAIL");
        for (Capability c : r.capabilities()) {
            out.printf("%-10s %-4s %s%n", c.name(), c.usable() ? "yes" : "NO", c.detail());
        }
        out.println();
        out.printf("cgroups:        %s; cpu controller: %s%n", r.cgroupMode(), r.cpuController());
        out.printf("cgroup parent:  %s (%s)%n", r.cgroupParent() == null ? "none" : r.cgroupParent(),
                r.cgroupParentUsable() ? "writable" : "not usable: " + r.capability("quota").map(Capability::detail).orElse("unknown"));
        out.printf("I/O schedulers: %s (ioprio is honoured by bfq and mq-deadline only)%n", r.ioSchedulers());
        out.printf("autogroup:      %s%n", r.autogroup() ? "on" : "off");
        out.printf("task group:     %s: %d other processes share it, %d are elsewhere%n", r.scope().taskGroup(),
                r.scope().sameGroupProcesses(), r.scope().otherProcesses());
        if (!r.scope().sameGroupSample().isEmpty()) {
            out.printf("                e.g. %s%n", String.join(", ", r.scope().sameGroupSample()));
        }
        for (String w : r.scope().warnings()) {
            out.println();
            out.println("WARNING: " + w);
        }
    }
}
