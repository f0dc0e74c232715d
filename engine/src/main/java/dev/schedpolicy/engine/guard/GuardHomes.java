package dev.schedpolicy.engine.guard;

import dev.schedpolicy.engine.cgroup.CgroupSystem;
import dev.schedpolicy.engine.cgroup.CpuCgroup;
import dev.schedpolicy.engine.cgroup.GroupMakers;
import dev.schedpolicy.engine.cgroup.ProcessHome;
import dev.schedpolicy.engine.launch.LaunchConfig;
import dev.schedpolicy.engine.launch.LaunchDirs;
import dev.schedpolicy.engine.launch.ThisJvm;
import dev.schedpolicy.engine.proc.ProcFs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Supplier;

/**
 * Where the processes a guard moved into its idle group came from, written down as they move, so that a guard that is
 * killed before it can put them back (its agent SIGKILLed, its machine's JVM gone) leaves nothing lowered: the next
 * guard or agent start reads the homes of every group whose maker is gone and sends what still sits there home. One
 * file per group in a private directory (the engine's state directory, 0700): a line per moved process with its start
 * time, so a PID the kernel has given to another process since is never moved.
 */
public final class GuardHomes {
    private static final String SUFFIX = ".homes";
    private static final String GROUP = "group\t";
    /** The JVM whose guard made the group: its PID and {@link ThisJvm#token()}. */
    private static final String MAKER = "maker\t";
    /** How far up its parents a child born while lowered is followed to a process with a home written down. */
    private static final int MAX_ANCESTORS = 64;

    private static final String DIR = "guard-homes";

    private final Path dir;
    private final Supplier<Path> make;

    /** Homes kept in {@code dir}, which {@code make} makes (private) before the first is written down. */
    GuardHomes(final Path dir, final Supplier<Path> make) {
        this.dir = dir;
        this.make = make;
    }

    /** The guard homes of the engine's private state directory ({@link LaunchConfig#stateDir()}). */
    public static GuardHomes in(final LaunchConfig config) {
        return new GuardHomes(config.stateDir().resolve(DIR), () -> LaunchDirs.shared(config, DIR));
    }

    /** Whether any guard's homes are written down (the directory exists only while one has something lowered). */
    public boolean any() {
        return Files.isDirectory(dir);
    }

    /** Writes down that {@code home}'s process was moved into {@code group} (a cgroup path). */
    synchronized void record(final String group, final ProcessHome home) {
        Optional<Instant> started = ProcessHandle.of(home.pid()).flatMap(h -> h.info().startInstant());
        if (started.isEmpty()) {
            return; // exited: nothing of it to put back
        }
        Path file = fileOf(group);
        String line = home.pid() + "\t" + started.get().toEpochMilli() + "\t" + home.cpuPath() + "\t"
                + home.cpuacctPath().orElse("") + "\n";
        for (int attempt = 1;; attempt++) {
            try {
                // the directory is made (private) for a group's first line only: a file in it means it is there
                if (!Files.exists(file)) {
                    make.get();
                    Files.writeString(file, GROUP + group + "\n" + MAKER + ProcessHandle.current().pid() + "\t" + ThisJvm.token() + "\n",
                            StandardCharsets.UTF_8);
                }
                Files.writeString(file, line, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
                return;
            } catch (NoSuchFileException e) {
                // another JVM's guard removed the directory as it became empty: made again, once
                if (attempt == 2) {
                    throw new UncheckedIOException("cannot write down where process " + home.pid() + " came from", e);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write down where process " + home.pid() + " came from (" + file + ")", e);
            }
        }
    }

    /** The group {@code group} is gone and everything in it is home: its homes are forgotten. */
    synchronized void forget(final String group) {
        try {
            Files.deleteIfExists(fileOf(group));
            removeDirIfEmpty();
        } catch (IOException e) {
            // a leftover file is read once more by the next sweep, finds its group gone, and is removed then
        }
    }

    /** Nothing of the engine's stays in the state directory once no guard has anything lowered. */
    private void removeDirIfEmpty() {
        try {
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            // another guard's homes are in it (DirectoryNotEmptyException), or it is gone
        }
    }

    /**
     * Sends home what sits in a group whose maker is gone: each process to the home written down for it (with the same
     * start time), a child born while lowered to its nearest written-down ancestor's, anything else to the group's first
     * home; then removes the group once empty and its file. Returns a line per group it found.
     */
    public synchronized List<String> restoreStale(final CgroupSystem system, final ProcFs proc) {
        List<String> said = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return said;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*" + SUFFIX)) {
            for (Path file : files) {
                restore(file, system, proc).ifPresent(said::add);
            }
        } catch (IOException | UncheckedIOException e) {
            said.add("cannot read " + dir + ": " + e.getMessage());
        }
        removeDirIfEmpty();
        return said;
    }

    private Optional<String> restore(final Path file, final CgroupSystem system, final ProcFs proc) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        if (lines.isEmpty() || !lines.get(0).startsWith(GROUP)) {
            Files.deleteIfExists(file);
            return Optional.empty();
        }
        String group = lines.get(0).substring(GROUP.length());
        if (makerRuns(group, system, lines)) {
            return Optional.empty(); // a running guard's
        }
        Map<Long, ProcessHome> homes = new LinkedHashMap<>();
        ProcessHome first = null;
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split("\t", -1);
            if (f.length != 4 || !f[0].matches("[0-9]{1,10}") || !f[1].matches("[0-9]{1,19}")) {
                continue;
            }
            long pid = Long.parseLong(f[0]);
            long started = Long.parseLong(f[1]);
            ProcessHome home = new ProcessHome(pid, f[2], f[3].isEmpty() ? Optional.empty() : Optional.of(f[3]));
            first = first == null ? home : first;
            // a PID the kernel has given to another process since is not the one that was moved
            if (ProcessHandle.of(pid).flatMap(h -> h.info().startInstant()).map(i -> i.toEpochMilli() == started).orElse(false)) {
                homes.putIfAbsent(pid, home);
            }
        }
        int back = 0;
        int failed = 0;
        for (long pid : system.pidsIn(group)) {
            ProcessHome home = homeFor(pid, homes, proc, first);
            if (home == null) {
                failed++;
                continue;
            }
            try {
                system.returnHome(home, pid);
                back++;
            } catch (RuntimeException e) {
                if (proc.stat(pid).isPresent()) {
                    failed++;
                }
            }
        }
        if (failed == 0) {
            // removed by name: a group of an earlier JVM of this very PID is no stale group to the sweeper, whose
            // creator test is the PID and the start of its process, which an exec in place keeps
            try {
                system.adopt(group).ifPresent(CpuCgroup::close);
                Files.deleteIfExists(file);
            } catch (RuntimeException e) {
                failed++; // a child born in it meanwhile: its file stays, for the next pass
            }
        }
        return Optional.of("guard group " + group + " of a guard that ended without putting back: " + back
                + (back == 1 ? " process" : " processes") + " sent home" + (failed == 0 ? "" : ", " + failed + " could not be"));
    }

    /**
     * Whether the guard that made {@code group} may still run: its JVM's PID is alive and not taken by a process younger
     * than the group ({@link GroupMakers}), and, when that PID is this JVM's, the homes name this JVM (not an earlier one
     * that exec'd into this one). Homes that name no JVM go by the PID.
     */
    private static boolean makerRuns(final String group, final CgroupSystem system, final List<String> lines) {
        OptionalLong maker = CgroupSystem.creatorOf(group);
        if (maker.isEmpty() || !groupDir(system, group).map(dir -> GroupMakers.mayStillRun(maker.getAsLong(), dir))
                .orElseGet(() -> ProcessHandle.of(maker.getAsLong()).isPresent())) {
            return false;
        }
        if (maker.getAsLong() != ProcessHandle.current().pid()) {
            return true;
        }
        for (String line : lines) {
            String[] f = line.split("\t", -1);
            if (line.startsWith(MAKER) && f.length == 3 && f[1].equals(Long.toString(maker.getAsLong()))) {
                return f[2].equals(ThisJvm.token());
            }
        }
        return true;
    }

    /** The group's directory; none where the cpu hierarchy is gone (then only whether the PID lives counts). */
    private static Optional<Path> groupDir(final CgroupSystem system, final String group) {
        try {
            return Optional.of(system.cpuDirOf(group));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    private static ProcessHome homeFor(final long pid, final Map<Long, ProcessHome> homes, final ProcFs proc,
            final ProcessHome first) {
        long at = pid;
        for (int i = 0; i < MAX_ANCESTORS && at > 1; i++) {
            ProcessHome own = homes.get(at);
            if (own != null) {
                return own;
            }
            at = proc.stat(at).map(s -> (long) s.ppid()).orElse(0L);
        }
        return first;
    }

    private Path fileOf(final String group) {
        return dir.resolve(Path.of(group).getFileName() + SUFFIX);
    }
}
