package dev.schedpolicy.engine.probe;

import dev.schedpolicy.engine.cgroup.CgroupException;
import dev.schedpolicy.engine.cgroup.CgroupSystem;
import dev.schedpolicy.engine.cgroup.CpuCgroup;
import dev.schedpolicy.engine.cgroup.CpuLimits;
import dev.schedpolicy.engine.cgroup.ParentCheck;
import dev.schedpolicy.engine.jna.JnaKernel;
import dev.schedpolicy.engine.linux.Kernel;
import dev.schedpolicy.engine.linux.SchedAttr;
import dev.schedpolicy.engine.linux.SyscallException;
import dev.schedpolicy.engine.policy.IoPriority;
import dev.schedpolicy.engine.proc.ProcFs;
import dev.schedpolicy.engine.proc.TaskStat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * Finds out what this user can apply here by trying each part on a scratch child process (a
 * {@code sleep} it then kills), never by guessing from uid or permission bits.
 */
public final class Probe {
    private final Kernel kernel;
    private final ProcFs proc;
    private final Path sysBlock;
    private final Optional<Path> cgroupParent;

    public Probe(final Kernel kernel, final ProcFs proc, final Path sysBlock, final Optional<Path> cgroupParent) {
        this.kernel = kernel;
        this.proc = proc;
        this.sysBlock = sysBlock;
        this.cgroupParent = cgroupParent;
    }

    /** The real machine; {@code cgroupParent} empty means the caller's own cpu cgroup. */
    public static Probe system(final Optional<Path> cgroupParent) {
        return new Probe(JnaKernel.get(), ProcFs.system(), Path.of("/sys/block"), cgroupParent);
    }

    public ProbeReport run() {
        List<Capability> caps = new ArrayList<>(perTaskCapabilities());
        CgroupFacts cg = cgroupFacts();
        caps.addAll(cg.capabilities);
        int cpus = Runtime.getRuntime().availableProcessors();
        String release = proc.read(proc.root().resolve("sys/kernel/osrelease")).map(String::trim).orElse("unknown");
        return new ProbeReport(ProbeReport.SCHEMA_VERSION, release, cpus, kernel.geteuid(), caps, cg.mode, cg.controller,
                cg.parent, cg.parentUsable, ioSchedulers(), proc.autogroupEnabled(), new ScopeScan(proc).scan());
    }

    private List<Capability> perTaskCapabilities() {
        List<Capability> caps = new ArrayList<>();
        Process child = scratchChild();
        try {
            int pid = (int) child.pid();
            caps.add(attempt("nice", "nice 19", () -> kernel.setNice(pid, 19), s -> s.nice() == 19, pid));
            caps.add(attempt("io-be", "I/O best-effort 7", () -> kernel.setIoPriority(pid, IoPriority.bestEffort(7).kernelValue()),
                    s -> kernel.getIoPriority(pid) == IoPriority.bestEffort(7).kernelValue(), pid));
            caps.add(attempt("io-idle", "I/O idle", () -> kernel.setIoPriority(pid, IoPriority.idle().kernelValue()),
                    s -> kernel.getIoPriority(pid) == IoPriority.idle().kernelValue(), pid));
            caps.add(attempt("affinity", "CPU affinity 0", () -> kernel.setAffinity(pid, cpu0()),
                    s -> proc.cpusAllowedList(pid, OptionalLong.empty()).orElse("").equals("0"), pid));
            caps.add(attempt("batch", "SCHED_BATCH", () -> kernel.setSchedAttr(pid, new SchedAttr(3, 0, 19, 0, 0)),
                    s -> s.policy() == 3, pid));
            caps.add(attempt("idle", "SCHED_IDLE", () -> kernel.setSchedAttr(pid, new SchedAttr(5, 0, 19, 0, 0)),
                    s -> s.policy() == 5, pid));
        } finally {
            reap(child);
        }
        return caps;
    }

    private Capability attempt(final String name, final String what, final Runnable call, final Predicate<TaskStat> check,
            final int pid) {
        try {
            call.run();
            Optional<TaskStat> stat = proc.stat(pid);
            if (stat.isPresent() && check.test(stat.get())) {
                return new Capability(name, true, what + " applied and read back");
            }
            return new Capability(name, false, what + " was accepted but did not read back");
        } catch (SyscallException e) {
            return new Capability(name, false, e.getMessage());
        }
    }

    private record CgroupFacts(String mode, String controller, String parent, boolean parentUsable, List<Capability> capabilities) {
    }

    private CgroupFacts cgroupFacts() {
        CgroupSystem system;
        try {
            system = CgroupSystem.detect(proc.root(), Path.of("/"));
        } catch (CgroupException e) {
            List<Capability> none = cgroupUnavailable("cgroups could not be read: " + e.getMessage());
            return new CgroupFacts("unknown", "none", null, false, none);
        }
        String mode = system.mode().name().toLowerCase(java.util.Locale.ROOT);
        String controller = system.cpuHierarchy().map(h -> h.version().name().toLowerCase(java.util.Locale.ROOT) + " at " + h.mountPoint()
                + (h.readOnly() ? " (read-only)" : "")).orElse("none");
        if (system.cpuHierarchy().isEmpty()) {
            return new CgroupFacts(mode, controller, null, false,
                    cgroupUnavailable("no cpu cgroup controller is mounted"));
        }
        Path parent;
        try {
            parent = cgroupParent.orElseGet(system::ownCpuCgroupDir);
        } catch (CgroupException e) {
            return new CgroupFacts(mode, controller, null, false, cgroupUnavailable(e.getMessage()));
        }
        ParentCheck check = system.checkParent(parent);
        if (!check.usable()) {
            return new CgroupFacts(mode, controller, parent.toString(), false, cgroupUnavailable(check.detail()));
        }
        List<Capability> caps = List.of(
                tryGroup(system, parent, "quota", new CpuLimits(OptionalInt.of(50), OptionalInt.empty(), false)),
                tryGroup(system, parent, "weight", new CpuLimits(OptionalInt.empty(), OptionalInt.of(50), false)),
                tryGroup(system, parent, "cpu-idle", new CpuLimits(OptionalInt.empty(), OptionalInt.empty(), true)));
        return new CgroupFacts(mode, controller, parent.toString(), true, caps);
    }

    private Capability tryGroup(final CgroupSystem system, final Path parent, final String name, final CpuLimits limits) {
        Process child = scratchChild();
        try (CpuCgroup group = system.createChild(parent, limits)) {
            try {
                group.placeProcess(child.pid());
                boolean inside = group.cgroupPath().equals(system.cpuCgroupOf(child.pid()));
                return new Capability(name, inside, inside ? "scratch group " + group.cgroupPath() + " created, limits set, process placed"
                        : "the scratch process did not read back inside " + group.cgroupPath());
            } finally {
                group.killAll();
            }
        } catch (CgroupException e) {
            return new Capability(name, false, e.getMessage());
        } finally {
            reap(child);
        }
    }

    /** Kills and waits, so the probe never leaves a scratch process behind, not even for a moment. */
    private static void reap(final Process child) {
        try {
            child.destroyForcibly().waitFor(5, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static List<Capability> cgroupUnavailable(final String why) {
        return List.of(new Capability("quota", false, why), new Capability("weight", false, why),
                new Capability("cpu-idle", false, why));
    }

    private Map<String, String> ioSchedulers() {
        Map<String, String> result = new TreeMap<>();
        if (!Files.isDirectory(sysBlock)) {
            return result;
        }
        try (Stream<Path> devices = Files.list(sysBlock)) {
            for (Path dev : devices.toList()) {
                String name = dev.getFileName().toString();
                if (name.startsWith("loop") || name.startsWith("ram")) {
                    continue;
                }
                proc.read(dev.resolve("queue/scheduler")).ifPresent(text -> {
                    int open = text.indexOf('[');
                    int close = text.indexOf(']');
                    result.put(name, open >= 0 && close > open ? text.substring(open + 1, close) : text.trim());
                });
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + sysBlock, e);
        }
        return result;
    }

    private static BitSet cpu0() {
        BitSet set = new BitSet();
        set.set(0);
        return set;
    }

    private static Process scratchChild() {
        try {
            // cat on a pipe from this JVM ends when the JVM does; a sleep ran on after an agent stopped mid-probe
            return new ProcessBuilder("cat").redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the probe's scratch process (cat): " + e.getMessage(), e);
        }
    }
}
