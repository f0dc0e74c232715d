package dev.schedpolicy.engine.container;

import dev.schedpolicy.engine.proc.ProcFs;
import dev.schedpolicy.engine.proc.TaskStat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchService;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.LongPredicate;

/**
 * Places the containers that a policed command's own processes start: a script, a Makefile, docker-workflow's Groovy
 * running {@code docker build}. The desk puts {@code docker} and {@code podman} wrappers in {@link #bin()}, which the
 * command gets first on its PATH; each wrapper asks the desk how to run its line (a request file named by its PID),
 * and execs the real client with the answer: the line as the owner's {@code decide} rewrote it, or a refusal. The
 * line is read from the kernel ({@code /proc/PID/cmdline}), not from what the wrapper says, and only a process
 * that {@code mayAsk} accepts (a descendant of the policed command) has its line placed; anyone else's is refused. The wrapper is a convenience, not a wall: a process
 * that calls the real client by its path is not placed, as Docker access is root-equivalent anyway.
 */
public final class ClientDesk implements AutoCloseable {
    /** The clients wrapped: the ones whose container starts the engine can place. */
    public static final List<String> CLIENTS = List.of("docker", "podman");
    private static final String TEMPLATE = loadTemplate();
    private static final long RESCAN_MILLIS = 500;
    private static final java.time.Duration SWEEP_EVERY = java.time.Duration.ofSeconds(5);
    static final java.time.Duration STALE = java.time.Duration.ofMinutes(1);
    static final java.time.Duration ABANDONED = java.time.Duration.ofHours(1);

    /**
     * One line a wrapper asks about.
     *
     * @param key  which of the desk's wrapper directories the wrapper ran from (see {@link #bin(String)})
     * @param pid  the wrapper's PID, which becomes the client's (the wrapper execs it)
     * @param argv the client's line: its name (docker or podman) and its arguments as given
     * @param env  the wrapper's environment, which the client inherits (DOCKER_HOST and the like choose the daemon)
     */
    public record Request(String key, long pid, List<String> argv, Map<String, String> env) {
        public Request {
            argv = List.copyOf(argv);
            env = Map.copyOf(env);
        }
    }

    /** What the wrapper does: run the client with {@code argv} (its name first), or refuse saying why. */
    public sealed interface Answer permits Go, No {
    }

    /**
     * @param note        one line the wrapper prints on its standard error before it runs the client ("": none)
     * @param verdict     a line the wrapper prints later, once known (what the kernel holds for the container the line
     *                    started), computed off the desk's thread; the wrapper waits for it at most {@link #VERDICT_WAIT}
     *                    in a background subshell, so the client is never held up. Empty: none.
     * @param afterClient the wrapper waits for the verdict after the client instead, and says it before it ends: for a
     *                    detached run, whose client returns once the container runs and whose step may end right then
     *                    (Jenkins reads no output of a step after its script ended)
     */
    public record Go(List<String> argv, String note, Optional<java.util.function.Supplier<String>> verdict,
            boolean afterClient) implements Answer {
        public Go {
            argv = List.copyOf(argv);
            note = note.replace('\n', ' ');
        }

        public Go(final List<String> argv, final String note, final Optional<java.util.function.Supplier<String>> verdict) {
            this(argv, note, verdict, false);
        }

        public Go(final List<String> argv, final String note) {
            this(argv, note, Optional.empty());
        }

        public Go(final List<String> argv) {
            this(argv, "");
        }
    }

    /** How long a wrapper's background subshell waits for a {@link Go#verdict}; one computed later is left to {@link #sweepAnswers}. */
    public static final java.time.Duration VERDICT_WAIT = java.time.Duration.ofSeconds(15);

    public record No(String why) implements Answer {
        public No {
            why = why.replace('\n', ' ');
        }
    }

    private final Path dir;
    private final ProcFs proc;
    private final LongPredicate mayAsk;
    private final Function<Request, Answer> decide;
    private final WatchService watch;
    private final Thread server;
    private volatile boolean closed;
    private volatile java.util.concurrent.ExecutorService verdicts;

    private ClientDesk(final Path dir, final ProcFs proc, final LongPredicate mayAsk, final Function<Request, Answer> decide)
            throws IOException {
        this.dir = dir;
        this.proc = proc;
        this.mayAsk = mayAsk;
        this.decide = decide;
        this.watch = dir.getFileSystem().newWatchService();
        dir.resolve("requests").register(watch, StandardWatchEventKinds.ENTRY_CREATE);
        this.server = new Thread(this::serve, "schedpolicy-client-desk");
        server.setDaemon(true);
    }

    /**
     * Opens a desk in {@code dir}, an empty directory only this user may enter (see
     * {@link dev.schedpolicy.engine.launch.LaunchDirs#create}), or one to make so: requests and answers carry the lines'
     * arguments, credentials included. Closing the desk removes it.
     *
     * @param mayAsk whether a process of this PID may have its line placed (a descendant of the policed command)
     * @param decide the answer for one line; an exception it throws refuses the line with its message
     */
    public static ClientDesk open(final Path dir, final ProcFs proc, final LongPredicate mayAsk, final Function<Request, Answer> decide) {
        if (dir.toString().contains("'") || dir.toString().contains("\n")) {
            throw new IllegalArgumentException("a client desk's directory must not contain a quote or a line break: " + dir);
        }
        try {
            if (!Files.isDirectory(dir)) {
                Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            }
            for (String sub : List.of("bin", "requests", "answers")) {
                Files.createDirectory(dir.resolve(sub));
            }
            ClientDesk desk = new ClientDesk(dir, proc, mayAsk, decide);
            desk.server.start();
            return desk;
        } catch (IOException e) {
            removeQuietly(dir);
            throw new UncheckedIOException("cannot open the container client desk in " + dir + ": " + e.getMessage(), e);
        }
    }

    /**
     * The directory to put first on a command's PATH, made on first use: its wrappers' requests carry {@code key}, so an
     * owner that polices commands under different policies tells them apart by the directory the kernel says the
     * wrapper ran from.
     *
     * @param key letters, digits, '-' and '_' only
     */
    public Path bin(final String key) {
        if (!key.matches("[A-Za-z0-9_-]{1,64}")) {
            throw new IllegalArgumentException("a client desk key is 1 to 64 letters, digits, '-' or '_': " + key);
        }
        Path bin = dir.resolve("bin").resolve(key);
        if (Files.isDirectory(bin)) {
            return bin;
        }
        try {
            Path tmp = Files.createTempDirectory(dir.resolve("bin"), "new");
            byte[] wrapper = ("#!/bin/sh\n" + TEMPLATE.replace("@DESK@", "'" + dir + "'")).getBytes(StandardCharsets.UTF_8);
            for (String client : CLIENTS) {
                Path file = tmp.resolve(client);
                Files.write(file, wrapper);
                Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("r-x------"));
            }
            try {
                Files.move(tmp, bin, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                // made by another thread meanwhile
                dev.schedpolicy.engine.launch.LaunchDirs.remove(tmp);
            }
            return bin;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make the container client wrappers in " + bin + ": " + e.getMessage(), e);
        }
    }

    /** {@code PATH} with {@link #bin(String)} first. */
    public String pathBefore(final String key, final String path) {
        Path bin = bin(key);
        return path == null || path.isEmpty() ? bin.toString() : bin + ":" + path;
    }

    private void serve() {
        long lastSweep = System.nanoTime();
        try {
            while (!closed) {
                var key = watch.poll(RESCAN_MILLIS, TimeUnit.MILLISECONDS);
                if (key != null) {
                    key.pollEvents();
                    key.reset();
                }
                // every file, not only the events': an overflow or a request made before the watch loses none
                answerAll();
                if (System.nanoTime() - lastSweep > SWEEP_EVERY.toNanos()) {
                    sweepAnswers(java.time.Instant.now());
                    lastSweep = System.nanoTime();
                }
            }
        } catch (InterruptedException | ClosedWatchServiceException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The files in the desk's directory {@code sub}; none when it cannot be listed (the next round tries again). */
    private List<Path> filesIn(final String sub) {
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> all = Files.newDirectoryStream(dir.resolve(sub))) {
            all.forEach(files::add);
        } catch (IOException e) {
            return List.of();
        }
        return files;
    }

    private void answerAll() {
        for (Path request : filesIn("requests")) {
            String name = request.getFileName().toString();
            try {
                Files.deleteIfExists(request);
            } catch (IOException e) {
                continue;
            }
            if (name.matches("[1-9][0-9]{0,9}")) {
                answer(Long.parseLong(name));
            }
        }
    }

    private void answer(final long pid) {
        Optional<Line> line = lineOf(pid);
        if (line.isEmpty()) {
            return;
        }
        Answer answer;
        try {
            answer = mayAsk.test(pid) ? decide.apply(new Request(line.get().key(), pid, line.get().argv(), environmentOf(pid)))
                    : new No("'" + line.get().argv().get(0) + "' (PID " + pid + ") is not a process of the policed command; not running it");
        } catch (RuntimeException e) {
            answer = new No(e.getMessage() == null ? e.toString() : e.getMessage());
        }
        String text = answer instanceof Go go ? "go\n" + (go.verdict().isEmpty() ? "" : go.afterClient() ? "after" : "watch") + "\n"
                + go.note() + "\n" + quoted(go.argv().subList(1, go.argv().size())) + "\n" : "no\n\n" + ((No) answer).why() + "\n";
        if (answer instanceof Go go && go.verdict().isPresent()) {
            Optional<java.time.Instant> asked = ProcessHandle.of(pid).flatMap(h -> h.info().startInstant());
            verdicts().execute(() -> {
                String verdict = go.verdict().get().get().replace('\n', ' ') + "\n";
                // a wrapper waiting after its client is gone once the client failed: no file is left for nobody
                if (!go.afterClient() || asked.isPresent() && ProcessHandle.of(pid).flatMap(h -> h.info().startInstant()).equals(asked)) {
                    write("v" + pid, verdict);
                }
            });
        }
        write(Long.toString(pid), text);
    }

    /**
     * Removes the answers nobody will read: a wrapper that gave up (30 s for its answer, {@link #VERDICT_WAIT} for a
     * verdict) leaves the file the desk wrote later. One older than {@link #STALE} goes once its wrapper's PID is gone,
     * any older than {@link #ABANDONED} in all cases (a foreground client runs on under the wrapper's PID after the
     * subshell gave up), so the directory holds at most about one file per running wrapper.
     */
    void sweepAnswers(final java.time.Instant now) {
        for (Path file : filesIn("answers")) {
            try {
                java.time.Instant written = Files.getLastModifiedTime(file).toInstant();
                if (written.isAfter(now.minus(STALE))) {
                    continue;
                }
                String pid = file.getFileName().toString().replaceFirst("^v", "").replaceFirst("\\.tmp$", "");
                boolean running = pid.matches("[1-9][0-9]{0,9}") && ProcessHandle.of(Long.parseLong(pid)).filter(ProcessHandle::isAlive).isPresent();
                if (!running || written.isBefore(now.minus(ABANDONED))) {
                    Files.deleteIfExists(file);
                }
            } catch (IOException e) {
                // gone meanwhile (its wrapper read it)
            }
        }
    }

    private synchronized java.util.concurrent.ExecutorService verdicts() {
        if (verdicts == null) {
            verdicts = java.util.concurrent.Executors.newFixedThreadPool(4, r -> {
                Thread t = new Thread(r, "schedpolicy-client-verdict");
                t.setDaemon(true);
                return t;
            });
        }
        return verdicts;
    }

    private void write(final String name, final String text) {
        if (closed) {
            return;
        }
        Path tmp = dir.resolve("answers").resolve(name + ".tmp");
        try {
            Files.writeString(tmp, text);
            Files.move(tmp, dir.resolve("answers").resolve(name), StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            // the wrapper gives up after its bound and runs nothing
        }
    }

    private record Line(String key, List<String> argv) {
    }

    /** The client's line, when {@code pid} is one of this desk's wrappers (sh, then the wrapper's path, then the arguments). */
    private Optional<Line> lineOf(final long pid) {
        Optional<byte[]> raw = readProc(pid, "cmdline");
        if (raw.isEmpty()) {
            return Optional.empty();
        }
        List<String> argv = nulSeparated(raw.get());
        if (argv.size() < 2) {
            return Optional.empty();
        }
        Path script = Path.of(argv.get(1));
        String client = script.getFileName() == null ? "" : script.getFileName().toString();
        Path keyDir = script.getParent();
        if (keyDir == null || !dir.resolve("bin").equals(keyDir.getParent()) || !CLIENTS.contains(client)) {
            return Optional.empty();
        }
        List<String> line = new ArrayList<>();
        line.add(client);
        line.addAll(argv.subList(2, argv.size()));
        return Optional.of(new Line(keyDir.getFileName().toString(), line));
    }

    private Map<String, String> environmentOf(final long pid) {
        Map<String, String> env = new LinkedHashMap<>();
        for (String entry : nulSeparated(readProc(pid, "environ").orElse(new byte[0]))) {
            int eq = entry.indexOf('=');
            if (eq > 0) {
                env.put(entry.substring(0, eq), entry.substring(eq + 1));
            }
        }
        return env;
    }

    private Optional<byte[]> readProc(final long pid, final String file) {
        try (InputStream in = Files.newInputStream(proc.root().resolve(Long.toString(pid)).resolve(file))) {
            return Optional.of(in.readAllBytes());
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private static List<String> nulSeparated(final byte[] raw) {
        List<String> parts = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < raw.length; i++) {
            if (raw[i] == 0) {
                parts.add(new String(raw, start, i - start, StandardCharsets.UTF_8));
                start = i + 1;
            }
        }
        if (start < raw.length) {
            parts.add(new String(raw, start, raw.length - start, StandardCharsets.UTF_8));
        }
        return parts;
    }

    /** Each argument in single quotes for the wrapper's eval; a quote inside is closed, escaped and reopened. */
    static String quoted(final List<String> args) {
        StringBuilder text = new StringBuilder();
        for (String arg : args) {
            if (!text.isEmpty()) {
                text.append(' ');
            }
            text.append('\'').append(arg.replace("'", "'\\''")).append('\'');
        }
        return text.toString();
    }

    /**
     * The container start a wrapper's line makes, which its owner places; empty for a line the wrapper runs as given (no
     * container start, or an exec, which joins a container as it is).
     *
     * @param policyWords the policy the start would escape, in words for the refusal ("the policy")
     * @throws ContainerRefusal for a line the parser cannot read: a container it starts would escape the policy
     */
    public static Optional<ContainerCommand> startIn(final List<String> argv, final String policyWords) {
        ContainerCommand.Parsed parsed = ContainerCommand.parse(argv);
        if (parsed instanceof ContainerCommand.Unreadable u) {
            throw new ContainerRefusal(u.reason() + "; a container it starts would run outside " + policyWords + ", so it is not run");
        }
        if (parsed instanceof ContainerCommand.Container c && c.command().action() != ContainerAction.EXEC) {
            return Optional.of(c.command());
        }
        return Optional.empty();
    }

    /** Whether {@code pid} is {@code root} or one of its descendants, by the kernel's parent links. */
    public static boolean descendsFrom(final ProcFs proc, final long pid, final long root) {
        long current = pid;
        for (int depth = 0; depth < 4096 && current > 1; depth++) {
            if (current == root) {
                return true;
            }
            Optional<TaskStat> stat = proc.stat(current);
            if (stat.isEmpty()) {
                return false;
            }
            current = stat.get().ppid();
        }
        return false;
    }

    /** Stops answering and removes the desk; a wrapper still waiting gives up without running its line. */
    @Override
    public void close() {
        closed = true;
        synchronized (this) {
            if (verdicts != null) {
                verdicts.shutdownNow();
            }
        }
        try {
            watch.close();
        } catch (IOException e) {
            // the server ends at its next poll
        }
        try {
            server.join(TimeUnit.SECONDS.toMillis(2));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        removeQuietly(dir);
    }

    private static void removeQuietly(final Path dir) {
        dev.schedpolicy.engine.launch.LaunchDirs.remove(dir);
    }

    private static String loadTemplate() {
        try (InputStream in = ClientDesk.class.getResourceAsStream("client-wrapper.sh")) {
            if (in == null) {
                throw new IllegalStateException("client-wrapper.sh is missing from the engine jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read client-wrapper.sh from the engine jar", e);
        }
    }
}
