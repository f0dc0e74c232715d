package dev.schedpolicy.engine.probe;

import dev.schedpolicy.engine.proc.ProcFs;
import dev.schedpolicy.engine.proc.TaskStat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Stream;

/** Groups every user process by task group, the unit the kernel weighs nice and SCHED_IDLE within. */
final class ScopeScan {
    private static final int SAMPLE = 5;
    private final ProcFs proc;

    ScopeScan(final ProcFs proc) {
        this.proc = proc;
    }

    TaskGroupScope scan() {
        long self = ProcessHandle.current().pid();
        boolean autogroup = proc.autogroupEnabled();
        String mine = taskGroupOf(self, autogroup).orElse("unknown");
        int same = 0;
        int other = 0;
        List<String> sample = new ArrayList<>();
        for (long pid : pids()) {
            if (pid == self || isKernelThread(pid)) {
                continue;
            }
            Optional<String> group = taskGroupOf(pid, autogroup);
            if (group.isEmpty()) {
                continue;
            }
            if (group.get().equals(mine)) {
                same++;
                if (sample.size() < SAMPLE) {
                    proc.stat(pid).ifPresent(s -> sample.add(pid + " " + s.comm()));
                }
            } else {
                other++;
            }
        }
        String release = proc.read(proc.root().resolve("sys/kernel/osrelease")).map(String::trim).orElse("");
        return new TaskGroupScope(mine, same, other, sample, warnings(mine, autogroup, same, other, release));
    }

    private static List<String> warnings(final String mine, final boolean autogroup, final int same, final int other,
            final String release) {
        List<String> warnings = new ArrayList<>();
        if (other == 0) {
            return warnings;
        }
        String controls = "only cgroup controls (cpu-idle, weight, quota) reach processes in other task groups";
        if (autogroup && mine.startsWith("autogroup")) {
            warnings.add("autogroup is on and this process is in the root cpu cgroup, so each session is its own task group: "
                    + "nice, batch and idle only act against the " + same + " other processes of this session (" + mine + "). "
                    + other + " processes in other sessions, e.g. tests started by another agent or login, compete as whole groups; "
                    + controls + ".");
        } else {
            warnings.add("nice, batch and idle only act against the " + same + " other processes in " + mine + "; " + other
                    + " processes in other cpu cgroups are not protected by them; " + controls + ".");
        }
        if (!release.isEmpty() && !ProbeReport.releaseAtLeast(release, 6, 11)) {
            warnings.add("Linux " + release + " is older than 6.11: there a SCHED_IDLE task also gives way at once to a task"
                    + " waking in any task group, but its CPU share is still weighed within its own group only.");
        }
        return warnings;
    }

    /** "cgroup /x", or for root-cgroup tasks under autogroup, "autogroup /autogroup-N in cgroup /". */
    private Optional<String> taskGroupOf(final long pid, final boolean autogroup) {
        List<String> lines = proc.cgroupLines(pid, OptionalLong.empty());
        if (lines.isEmpty()) {
            return Optional.empty();
        }
        String cgroup = dev.schedpolicy.engine.launch.ReadBack.cpuCgroup(lines);
        if (autogroup && cgroup.equals("/")) {
            // empty: the task sits in the root task group, not an autogroup (seen for tasks of init's session on 7.3)
            Optional<String> ag = proc.autogroup(pid).filter(a -> !a.isEmpty());
            if (ag.isPresent()) {
                return Optional.of("autogroup " + ag.get().split(" ")[0] + " in cgroup /");
            }
        }
        return Optional.of("cgroup " + cgroup);
    }

    private boolean isKernelThread(final long pid) {
        Optional<TaskStat> stat = proc.stat(pid);
        return stat.isEmpty() || pid == 2 || stat.get().ppid() == 2;
    }

    private List<Long> pids() {
        try (Stream<Path> entries = Files.list(proc.root())) {
            return entries.map(p -> p.getFileName().toString()).filter(s -> s.matches("\\d+")).map(Long::valueOf).toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + proc.root(), e);
        }
    }
}
