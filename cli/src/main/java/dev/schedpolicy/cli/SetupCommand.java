package dev.schedpolicy.cli;

import dev.schedpolicy.engine.cgroup.CgroupSystem;
import dev.schedpolicy.engine.cgroup.IdleParent;
import dev.schedpolicy.engine.jna.JnaKernel;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code schedpolicy setup}: the one-time administrator step that makes the machine-wide idle parent. */
@Command(name = "setup", mixinStandardHelpOptions = true,
        header = {"Create the machine-wide idle parent that builds yield under.", ""},
        description = {"Create the machine-wide idle parent: a cpu.idle=1 group at the top of the",
            "cpu cgroup hierarchy (v1 and v2), so builds placed under it yield to every",
            "other task group on the machine. Run once as root; running it again checks",
            "and repairs. Agents then use it with --cgroup-parent."},
        footer = {"", "Examples:", "  sudo schedpolicy setup --user jenkins", "  sudo schedpolicy setup --remove",
            "", "On machines managed by systemd, a slice with CPUWeight=idle does the same (see docs/usage.md)."})
public final class SetupCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--user", paramLabel = "USER", description = "hand the group to this user (the agent's), so it can"
            + " create its build groups there without root (cgroup v2: the files systemd's Delegate=yes hands over)")
    String user;

    @Option(names = "--path", paramLabel = "DIR", description = "where to create it (default: schedpolicy.idle at the top"
            + " of the cpu hierarchy, e.g. /sys/fs/cgroup/cpu/schedpolicy.idle on v1, /sys/fs/cgroup/schedpolicy.idle on v2)")
    Path path;

    @Option(names = "--remove", description = "remove the idle parent (refused while builds use it)")
    boolean remove;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        if (remove && user != null) {
            throw new UsageException("--remove and --user exclude each other");
        }
        if (JnaKernel.get().geteuid() != 0) {
            throw new UsageException("setup changes the machine's cgroup tree: run it as root (e.g. sudo schedpolicy setup"
                    + " --user <agent user>)");
        }
        CgroupSystem system = CgroupSystem.detect();
        IdleParent parent = path == null ? IdleParent.of(system) : IdleParent.at(system, path);
        List<String> steps = remove ? parent.remove() : parent.setUp(Optional.ofNullable(user));
        steps.forEach(s -> out.println("schedpolicy setup: " + s));
        if (!remove) {
            out.println("Agents use it with: schedpolicy run --cpu-idle --cgroup-parent " + parent.path() + " -- ...");
        }
        out.flush();
        return ExitCodes.OK;
    }
}
