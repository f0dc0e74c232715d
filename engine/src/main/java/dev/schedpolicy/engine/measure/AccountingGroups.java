package dev.schedpolicy.engine.measure;

import dev.schedpolicy.engine.cgroup.CgroupHierarchy;
import dev.schedpolicy.engine.cgroup.CgroupSystem;
import dev.schedpolicy.engine.cgroup.CgroupVersion;
import dev.schedpolicy.engine.cgroup.GroupMakers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * Chooses where a step's accounting group can go on this machine, by layout: a child of the launcher's own cgroup v2
 * group when that group enables no controllers for its children (then the child shares the launcher's cpu task group:
 * no placement change), else a child of the launcher's group in a v1 cpuacct hierarchy mounted without cpu, else none
 * (the meter then follows the process tree only, and says so).
 */
public final class AccountingGroups {
    static final String PREFIX = "schedpolicy-measure-";
    private static final AtomicLong COUNTER = new AtomicLong();

    private final Path procRoot;
    private final Path fsRoot;
    private volatile boolean swept;
    /** The layout, read once: a launch should not re-read mountinfo (docs/jenkins.md has the cost per launch). */
    private CgroupSystem system;
    private String ownCgroups;

    public AccountingGroups(final Path procRoot, final Path fsRoot) {
        this.procRoot = procRoot;
        this.fsRoot = fsRoot;
    }

    public static AccountingGroups system() {
        return new AccountingGroups(Path.of("/proc"), Path.of("/"));
    }

    /** A made group, or the reason none could be made. */
    public record Choice(Optional<AccountingGroup> group, String reason) {
    }

    /** Makes a fresh accounting group for one step under this JVM's own groups. */
    public Choice create() {
        return create(false);
    }

    /**
     * As {@link #create()}; {@code placedByPolicy}: the step's policy puts it into a cpu cgroup of its own, which on a
     * v2 hierarchy with the cpu controller is the step's one v2 group, so a v2 accounting group would undo it.
     */
    public Choice create(final boolean placedByPolicy) {
        synchronized (this) {
            if (system == null) {
                try {
                    ownCgroups = Files.readString(procRoot.resolve("self/cgroup"));
                    system = CgroupSystem.detect(procRoot, fsRoot);
                } catch (IOException | RuntimeException e) {
                    return new Choice(Optional.empty(), "cannot read the cgroup layout: " + e.getMessage());
                }
            }
        }
        StringBuilder why = new StringBuilder();
        for (CgroupHierarchy h : system.hierarchies()) {
            if (h.version() == CgroupVersion.V2 && !h.readOnly()) {
                Optional<String> own = pathFor(ownCgroups, "");
                if (own.isPresent() && placedByPolicy && readOrEmpty(h.dirOf("/").resolve("cgroup.controllers")).contains("cpu")) {
                    why.append("the step's policy places it in a v2 cpu group of its own, and a process is in one v2 group"
                            + " only; ");
                } else if (own.isPresent()) {
                    Path home = h.dirOf(own.get());
                    String enabled = readOrEmpty(home.resolve("cgroup.subtree_control")).trim();
                    if (!enabled.isEmpty()) {
                        why.append("the v2 group ").append(home).append(" enables '").append(enabled)
                                .append("' for its children, so a group there would be placed apart; ");
                    } else {
                        Choice c = make(AccountingGroup.Kind.V2, home);
                        if (c.group().isPresent()) {
                            return c;
                        }
                        why.append(c.reason()).append("; ");
                    }
                }
            }
        }
        for (CgroupHierarchy h : system.hierarchies()) {
            if (h.version() == CgroupVersion.V1 && h.controllers().contains("cpuacct") && !h.readOnly()) {
                if (h.controllers().contains("cpu")) {
                    why.append("cpuacct is mounted together with cpu, so a cpuacct group would be a cpu task group; ");
                    continue;
                }
                Optional<String> own = pathFor(ownCgroups, "cpuacct");
                if (own.isPresent()) {
                    Choice c = make(AccountingGroup.Kind.V1_CPUACCT, h.dirOf(own.get()));
                    if (c.group().isPresent()) {
                        return c;
                    }
                    why.append(c.reason()).append("; ");
                }
            }
        }
        String reason = why.length() == 0 ? "no writable cgroup v2 or separate v1 cpuacct hierarchy"
                : why.substring(0, why.length() - 2);
        return new Choice(Optional.empty(), reason);
    }

    private Choice make(final AccountingGroup.Kind kind, final Path home) {
        sweepStale(home);
        Path dir = home.resolve(PREFIX + ProcessHandle.current().pid() + "-" + COUNTER.incrementAndGet());
        try {
            Files.createDirectory(dir);
            return new Choice(Optional.of(new AccountingGroup(kind, dir)), "");
        } catch (IOException e) {
            return new Choice(Optional.empty(), "cannot make an accounting group under " + home + ": " + e);
        }
    }

    /** Empty accounting groups of JVMs that died before removing them. */
    private void sweepStale(final Path home) {
        if (swept) {
            return;
        }
        swept = true;
        try (Stream<Path> children = Files.list(home)) {
            children.filter(p -> p.getFileName().toString().startsWith(PREFIX)).forEach(p -> {
                String[] parts = p.getFileName().toString().substring(PREFIX.length()).split("-");
                boolean owned;
                try {
                    owned = GroupMakers.mayStillRun(Long.parseLong(parts[0]), p);
                } catch (NumberFormatException e) {
                    owned = true;
                }
                if (!owned) {
                    try {
                        Files.delete(p);
                    } catch (IOException e) {
                        // not empty: a step's daemon still runs there; leave it
                    }
                }
            });
        } catch (IOException e) {
            // nothing to sweep
        }
    }

    /** The path of /proc/self/cgroup for one v1 controller, or the v2 line when {@code controller} is empty. */
    static Optional<String> pathFor(final String procCgroup, final String controller) {
        for (String line : procCgroup.split("\n")) {
            String[] f = line.split(":", 3);
            if (f.length == 3) {
                boolean v2 = f[0].equals("0") && f[1].isEmpty();
                if (controller.isEmpty() ? v2 : !v2 && java.util.Arrays.asList(f[1].split(",")).contains(controller)) {
                    return Optional.of(f[2].trim());
                }
            }
        }
        return Optional.empty();
    }

    private static String readOrEmpty(final Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return "";
        }
    }
}
