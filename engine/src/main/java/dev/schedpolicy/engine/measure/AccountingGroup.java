package dev.schedpolicy.engine.measure;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * A cgroup made only to count a step: one with no cpu controller of its own (a controller-less cgroup v2 group, or a
 * v1 cpuacct hierarchy mounted apart from cpu), so the step's tasks keep their task group, weight and placement.
 * Membership is inherited across fork whatever the process does (setsid, double fork), so the group also holds the
 * processes that leave the step's process tree, and its CPU counter includes every task that already exited.
 */
public final class AccountingGroup {
    /** Which kind of group, and so which files hold the figures. */
    public enum Kind {
        /** cgroup v2 without controllers: cpu.stat usage_usec (core accounting) and cpu.pressure (PSI). */
        V2("cgroup v2 accounting group (no controllers): cpu.stat, cpu.pressure", "cgroup.procs", "cgroup.threads"),
        /** v1 cpuacct on its own hierarchy: cpuacct.usage; no pressure. */
        V1_CPUACCT("cgroup v1 cpuacct group (cpuacct mounted apart from cpu): cpuacct.usage", "cgroup.procs", "tasks");

        private final String words;
        private final String procsFile;
        private final String threadsFile;

        Kind(final String words, final String procsFile, final String threadsFile) {
            this.words = words;
            this.procsFile = procsFile;
            this.threadsFile = threadsFile;
        }

        public String words() {
            return words;
        }
    }

    private final Kind kind;
    private final Path dir;

    AccountingGroup(final Kind kind, final Path dir) {
        this.kind = kind;
        this.dir = dir;
    }

    public Kind kind() {
        return kind;
    }

    public Path dir() {
        return dir;
    }

    /** The file a process writes "0" to, to enter this group itself (race-free: before it execs the command). */
    public Path procsFile() {
        return dir.resolve(kind.procsFile);
    }

    /** Moves a process (all its threads) into the group. */
    public void add(final long pid) {
        write(dir.resolve(kind.procsFile), Long.toString(pid));
    }

    /** The thread IDs in the group now; empty once it is gone. */
    public List<Long> threads() {
        List<Long> tids = new ArrayList<>();
        for (String line : read(dir.resolve(kind.threadsFile)).split("\n")) {
            if (!line.isBlank()) {
                tids.add(Long.valueOf(line.trim()));
            }
        }
        return tids;
    }

    /** The process IDs in the group now. */
    public List<Long> processes() {
        List<Long> pids = new ArrayList<>();
        for (String line : read(dir.resolve(kind.procsFile)).split("\n")) {
            if (!line.isBlank()) {
                pids.add(Long.valueOf(line.trim()));
            }
        }
        return pids;
    }

    /** CPU time of every task that ever ran in the group, exited ones included, in ns. */
    public long cpuNanos() {
        if (kind == Kind.V1_CPUACCT) {
            return Long.parseLong(read(dir.resolve("cpuacct.usage")).trim());
        }
        for (String line : read(dir.resolve("cpu.stat")).split("\n")) {
            if (line.startsWith("usage_usec ")) {
                return Long.parseLong(line.substring(11).trim()) * 1000;
            }
        }
        throw new IllegalStateException("no usage_usec in " + dir.resolve("cpu.stat"));
    }

    /** PSI "some" total of the group (time in which at least one of its tasks waited for a CPU), in µs; v2 only. */
    public OptionalLong pressureSomeMicros() {
        if (kind != Kind.V2) {
            return OptionalLong.empty();
        }
        try {
            String text = read(dir.resolve("cpu.pressure"));
            for (String line : text.split("\n")) {
                if (line.startsWith("some ")) {
                    int at = line.indexOf("total=");
                    return at < 0 ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(line.substring(at + 6).trim()));
                }
            }
            return OptionalLong.empty();
        } catch (UncheckedIOException e) {
            // psi=0 at boot: the file exists but reads fail
            return OptionalLong.empty();
        }
    }

    /**
     * Returns what is still in the group to the parent group (where it came from: the group was made under the
     * launcher's own group) and removes the group, so nothing is left behind. Returns how many processes were moved.
     */
    public int dissolve() {
        int moved = 0;
        Path parent = dir.getParent();
        for (int attempt = 0; attempt < 20; attempt++) {
            List<Long> left = kind == Kind.V2 ? safeList(this::processes) : safeList(this::threads);
            for (long id : left) {
                try {
                    write(parent.resolve(kind == Kind.V2 ? kind.procsFile : kind.threadsFile), Long.toString(id));
                    moved++;
                } catch (UncheckedIOException e) {
                    // it exited meanwhile
                }
            }
            try {
                Files.delete(dir);
                return moved;
            } catch (NoSuchFileException e) {
                return moved;
            } catch (IOException e) {
                // EBUSY while a task that just exited is still being unlinked from the group
                sleep();
            }
        }
        throw new IllegalStateException("cannot remove the accounting group " + dir + ": it stays busy");
    }

    private static List<Long> safeList(final java.util.function.Supplier<List<Long>> list) {
        try {
            return list.get();
        } catch (UncheckedIOException e) {
            return List.of();
        }
    }

    private static void sleep() {
        try {
            Thread.sleep(5);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String read(final Path file) {
        try {
            return Files.readString(file);
        } catch (NoSuchFileException e) {
            return "";
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    private static void write(final Path file, final String value) {
        try {
            Files.writeString(file, value);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + value + " to " + file, e);
        }
    }
}
