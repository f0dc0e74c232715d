package dev.schedpolicy.engine.proc;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Stream;

/** Reads /proc under a configurable root, so tests can point it at a tree in a temp dir. */
public final class ProcFs {
    private static final ProcFs SYSTEM = new ProcFs(Path.of("/proc"));

    private final Path root;

    public ProcFs(final Path root) {
        this.root = root;
    }

    public static ProcFs system() {
        return SYSTEM;
    }

    public Path root() {
        return root;
    }

    /** Empty when the process is gone (it exited and was reaped). */
    /**
     * The PIDs of the processes alive now (the numeric entries of /proc), in no order; empty when /proc cannot be
     * listed.
     */
    public List<Long> pids() {
        List<Long> out = new ArrayList<>();
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(root, p -> isPid(p.getFileName().toString()))) {
            for (Path dir : dirs) {
                out.add(Long.parseLong(dir.getFileName().toString()));
            }
        } catch (IOException e) {
            return List.of();
        }
        return out;
    }

    private static boolean isPid(final String name) {
        if (name.isEmpty() || name.length() > 18) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            if (name.charAt(i) < '0' || name.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    public Optional<TaskStat> stat(final long pid) {
        return read(root.resolve(pid + "/stat")).map(TaskStat::parse);
    }

    public Optional<TaskStat> threadStat(final long pid, final long tid) {
        return read(root.resolve(pid + "/task/" + tid + "/stat")).map(TaskStat::parse);
    }

    /** The thread IDs of a process; empty when it is gone. */
    public List<Long> threads(final long pid) {
        // no regular expression here: a guard lists its step's threads several times a second
        try (Stream<Path> tasks = Files.list(root.resolve(pid + "/task"))) {
            return tasks.map(p -> p.getFileName().toString()).filter(ProcFs::isPid).map(Long::valueOf).toList();
        } catch (NoSuchFileException e) {
            return List.of();
        } catch (IOException e) {
            // a process that exits while its task directory is read answers ESRCH ("No such process"), not ENOENT
            if (!Files.exists(root.resolve(Long.toString(pid)))) {
                return List.of();
            }
            throw new UncheckedIOException("cannot list threads of " + pid, e);
        }
    }

    /**
     * The live descendants of a process, parents before children, from each thread's
     * {@code /proc/PID/task/TID/children} (Linux 3.5+, CONFIG_PROC_CHILDREN). It reads only the tree, where
     * {@link ProcessHandle#descendants()} reads the stat file of every process on the machine: about 2 ms of CPU
     * per call with 100 processes (measured 2026-11-26), which a sampler that polls every 50 ms charges to its own
     * task group. Empty when the process is gone; {@code Optional.empty()} when the kernel has no children files.
     */
    public Optional<List<Long>> descendants(final long pid) {
        if (!Files.exists(root.resolve(pid + "/task/" + pid + "/children")) && Files.exists(root.resolve(pid + "/task"))) {
            return Optional.empty();
        }
        List<Long> out = new ArrayList<>();
        Deque<Long> todo = new ArrayDeque<>(List.of(pid));
        while (!todo.isEmpty()) {
            long p = todo.removeFirst();
            for (long tid : threads(p)) {
                read(root.resolve(p + "/task/" + tid + "/children")).ifPresent(text -> {
                    for (String child : text.trim().split("\\s+")) {
                        if (!child.isEmpty()) {
                            out.add(Long.valueOf(child));
                            todo.addLast(Long.valueOf(child));
                        }
                    }
                });
            }
        }
        return Optional.of(out);
    }

    /** schedstat summed over all threads of the process, because each thread has its own. */
    public SchedStat schedStat(final long pid) {
        SchedStat sum = SchedStat.ZERO;
        for (long tid : threads(pid)) {
            Optional<String> text = read(root.resolve(pid + "/task/" + tid + "/schedstat"));
            if (text.isPresent()) {
                sum = sum.plus(SchedStat.parse(text.get()));
            }
        }
        return sum;
    }

    /** A task's own schedstat by its ID alone (/proc/TID/schedstat resolves thread IDs too); empty when it is gone. */
    public Optional<SchedStat> taskSchedStat(final long tid) {
        return read(root.resolve(tid + "/schedstat")).map(SchedStat::parse);
    }

    /**
     * As {@link #taskSchedStat(long)} into a caller's buffer (at least 96 bytes), without building strings: a sampler
     * reads this for every task of every measured step several times a second, and its cost is the measurement's.
     */
    public Optional<SchedStat> taskSchedStat(final long tid, final byte[] buffer) {
        int n = 0;
        try (java.io.FileInputStream in = new java.io.FileInputStream(root.resolve(tid + "/schedstat").toFile())) {
            int r;
            while (n < buffer.length && (r = in.read(buffer, n, buffer.length - n)) > 0) {
                n += r;
            }
        } catch (IOException e) {
            // FileNotFoundException or ESRCH: the task is gone
            return Optional.empty();
        }
        long[] f = new long[3];
        int field = 0;
        boolean inNumber = false;
        for (int i = 0; i < n && field < 3; i++) {
            byte b = buffer[i];
            if (b >= '0' && b <= '9') {
                f[field] = f[field] * 10 + (b - '0');
                inNumber = true;
            } else if (inNumber) {
                field++;
                inNumber = false;
            }
        }
        if (field < 2 || (field == 2 && !inNumber)) {
            return Optional.empty();
        }
        return Optional.of(new SchedStat(f[0], f[1], f[2]));
    }

    /** What {@link #environHas} found. */
    public enum EnvironEntry {
        /** The environment the process was started with holds the entry. */
        PRESENT,
        /** It does not (or the process is gone, or is a kernel thread). */
        ABSENT,
        /** It was longer than the bound read, and the part read does not hold the entry. */
        TOO_LONG,
        /** The agent may not read it (another user's process, or one more privileged). */
        UNREADABLE
    }

    /**
     * Whether the environment {@code pid} was started with (/proc/PID/environ, which the process's later setenv does not
     * change) holds {@code entry} ("NAME=value") whole, reading at most {@code maxBytes} of it. Nothing else of the
     * environment is kept: it holds a build's secrets.
     */
    public EnvironEntry environHas(final long pid, final String entry, final int maxBytes) {
        byte[] want = (entry + "\0").getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] text;
        try (java.io.InputStream in = Files.newInputStream(root.resolve(pid + "/environ"))) {
            text = in.readNBytes(maxBytes + 1);
        } catch (java.nio.file.AccessDeniedException e) {
            return EnvironEntry.UNREADABLE;
        } catch (IOException e) {
            if (e.getMessage() != null && e.getMessage().contains("Permission denied")) {
                return EnvironEntry.UNREADABLE;
            }
            return EnvironEntry.ABSENT; // gone
        }
        int length = Math.min(text.length, maxBytes);
        for (int start = 0; start + want.length <= length; start++) {
            if ((start == 0 || text[start - 1] == 0) && matches(text, start, want)) {
                return EnvironEntry.PRESENT;
            }
        }
        return text.length > maxBytes ? EnvironEntry.TOO_LONG : EnvironEntry.ABSENT;
    }

    private static boolean matches(final byte[] text, final int at, final byte[] want) {
        for (int i = 0; i < want.length; i++) {
            if (text[at + i] != want[i]) {
                return false;
            }
        }
        return true;
    }

    /** Whether the kernel keeps per-task run-queue statistics (CONFIG_SCHED_INFO): /proc/self/schedstat exists. */
    public boolean hasSchedStat() {
        return java.nio.file.Files.exists(root.resolve("self/schedstat"));
    }

    /** One thread's schedstat; empty when the thread is gone. */
    public Optional<SchedStat> threadSchedStat(final long pid, final long tid) {
        return read(root.resolve(pid + "/task/" + tid + "/schedstat")).map(SchedStat::parse);
    }

    /** All CPUs' idle and total time from /proc/stat; empty when it cannot be read. */
    public Optional<CpuTimes> cpuTimes() {
        return read(root.resolve("stat")).map(CpuTimes::parse);
    }

    /** The 1-minute load average from /proc/loadavg; empty when it cannot be read. */
    public Optional<Double> loadAverage() {
        return read(root.resolve("loadavg")).map(s -> Double.valueOf(s.trim().split("\\s+")[0]));
    }

    /** /proc/sys/kernel/hostname; empty when it cannot be read. */
    public Optional<String> hostname() {
        return read(root.resolve("sys/kernel/hostname")).map(String::trim);
    }

    /** Cpus_allowed_list from /proc/PID/status (or a thread's, when tid is given). */
    public Optional<String> cpusAllowedList(final long pid, final OptionalLong tid) {
        return statusField(pid, tid, "Cpus_allowed_list");
    }

    /** A signal set of /proc/PID/status (SigBlk, SigIgn, SigCgt) or a thread's; bit n-1 stands for signal n. */
    public OptionalLong signalSet(final long pid, final OptionalLong tid, final String name) {
        return statusField(pid, tid, name).map(hex -> OptionalLong.of(Long.parseUnsignedLong(hex, 16))).orElse(OptionalLong.empty());
    }

    private Optional<String> statusField(final long pid, final OptionalLong tid, final String name) {
        Path status = tid.isPresent() ? root.resolve(pid + "/task/" + tid.getAsLong() + "/status") : root.resolve(pid + "/status");
        return read(status).flatMap(text -> text.lines().filter(l -> l.startsWith(name + ":"))
                .map(l -> l.substring(l.indexOf(':') + 1).trim()).findFirst());
    }

    /** Lines of /proc/PID/cgroup (or a thread's): "ID:controllers:path". */
    public List<String> cgroupLines(final long pid, final OptionalLong tid) {
        Path file = tid.isPresent() ? root.resolve(pid + "/task/" + tid.getAsLong() + "/cgroup") : root.resolve(pid + "/cgroup");
        return read(file).map(t -> t.lines().toList()).orElse(List.of());
    }

    /** PSI cpu "some", or empty when the kernel has no PSI (CONFIG_PSI off or psi=0). */
    public Optional<Pressure> cpuPressure() {
        try {
            return read(root.resolve("pressure/cpu")).map(Pressure::parseSome);
        } catch (UncheckedIOException e) {
            // psi=0 at boot makes the file exist but fail reads with EOPNOTSUPP
            return Optional.empty();
        }
    }

    public boolean autogroupEnabled() {
        return read(root.resolve("sys/kernel/sched_autogroup_enabled")).map(s -> s.trim().equals("1")).orElse(false);
    }

    /** /proc/PID/autogroup, e.g. "/autogroup-42 nice 0"; empty when autogroup is off or the process is gone. */
    public Optional<String> autogroup(final long pid) {
        return read(root.resolve(pid + "/autogroup")).map(String::trim);
    }

    public Optional<String> read(final Path file) {
        try {
            return Optional.of(Files.readString(file));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            if (e.getMessage() != null && e.getMessage().contains("No such process")) {
                return Optional.empty();
            }
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }
}
