package dev.schedpolicy.engine.agent;

import dev.schedpolicy.engine.buildpage.LaunchMarks;
import dev.schedpolicy.engine.cgroup.CgroupSystem;
import dev.schedpolicy.engine.launch.LaunchConfig;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * What the guard costs and how fast it acts on an agent, through the registry the plugin drives: {@code launches}
 * launches of busy shell steps (each a launched shell that exits at once and leaves its loop running with the launch's
 * marker only, as Jenkins' {@code sh} does), then one guarded busy launch beside them.
 * <ul>
 * <li>cost: this JVM's CPU (all its threads: the guard's loop, the registry's tick, the launch trees' scans) over
 * {@code seconds} with the guarded launch running and lowering the others, less the same window without it;</li>
 * <li>first action: from the guarded launch's release to the first of the others read in the guard's group
 * ({@code /proc/PID/cgroup}, polled every 2 ms), over {@code rounds} guarded launches;</li>
 * <li>restore: from the guarded launch's last process's end to all of the others read back in their own groups.</li>
 * </ul>
 * Needs root and a writable cpu cgroup hierarchy. Run: {@code bench/guard-cost.sh [LAUNCHES [SECONDS [ROUNDS]]]}.
 */
public final class GuardCost {
    private static final String BUSY = "while :; do :; done";
    private final HandshakeRegistry registry;
    private final CgroupSystem cgroups = CgroupSystem.detect();
    private final List<Process> started = new ArrayList<>();
    private final List<Long> loops = new ArrayList<>();

    private GuardCost(final Path state) {
        registry = new HandshakeRegistry(LaunchConfig.defaults().withStateDir(state), Path.of("/proc"), Duration.ofHours(1));
    }

    public static void main(final String[] args) throws Exception {
        int launches = args.length > 0 ? Integer.parseInt(args[0]) : 8;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 7;
        int warmup = args.length > 3 ? Integer.parseInt(args[3]) : 60;
        Path state = Files.createTempDirectory("schedpolicy-guard-cost");
        GuardCost bench = new GuardCost(state);
        try {
            bench.run(launches, seconds, rounds, warmup);
        } finally {
            bench.close();
            try (var files = Files.walk(state)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private void run(final int launches, final int seconds, final int rounds, final int warmup) throws Exception {
        for (int i = 0; i < launches; i++) {
            loops.add(orphanLoop("compile-" + i));
        }
        List<String> homes = new ArrayList<>();
        for (long pid : loops) {
            homes.add(cgroups.cpuCgroupOf(pid));
        }
        // the agent JVM compiles the guard's code once for all guards: a warm-up guard first, so that the windows
        // below hold what every later guard costs, not the JIT's one-time work
        PreparedLaunch warm = guarded("warm-up");
        Process warming = launch(warm, BUSY);
        Thread.sleep(TimeUnit.SECONDS.toMillis(warmup));
        stop(warming);
        await(() -> allHome(homes), 10_000);
        registry.collectGuards(List.of(warm.id()), Duration.ofSeconds(10));
        Thread.sleep(1_000);
        Window without = Window.over(seconds);
        PreparedLaunch tests = guarded("cost");
        Process guarded = launch(tests, BUSY);
        await(() -> anyLowered(homes), 10_000);
        Thread.sleep(1_000);
        Window with = Window.over(seconds);
        stop(guarded);
        await(() -> allHome(homes), 10_000);
        registry.collectGuards(List.of(tests.id()), Duration.ofSeconds(10));
        System.out.printf(Locale.ROOT, "%d launches on the agent, windows of %d s after a %d s warm-up guard: the guard's"
                + " loop thread used %.2f%% of one CPU while it had them lowered; the registry's threads %.2f%% (%.2f%%"
                + " without a guard); the whole JVM %.2f%% (%.2f%% without)%n", launches, seconds, warmup,
                with.share("schedpolicy-gua"), with.share("schedpolicy-reg"), without.share("schedpolicy-reg"),
                with.jvmShare(), without.jvmShare());
        System.out.println("threads over 0.1% of one CPU with the guard: " + with.busiest(0.1));

        long[] first = new long[rounds];
        long[] back = new long[rounds];
        for (int r = 0; r < rounds; r++) {
            Thread.sleep(500);
            PreparedLaunch t = guarded("round-" + r);
            List<String> argv = t.prefix(List.of("/bin/sh", "-c", BUSY));
            ProcessBuilder pb = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
            pb.environment().put(LaunchMarks.MARKER, t.id());
            Process p = pb.start();
            started.add(p);
            registry.release(t.id(), Duration.ofSeconds(10));
            long released = System.nanoTime();
            first[r] = pollUntil(() -> anyLowered(homes), released, 10_000);
            Thread.sleep(1_000);
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
            long ended = System.nanoTime();
            back[r] = pollUntil(() -> allHome(homes), ended, 10_000);
            registry.collectGuards(List.of(t.id()), Duration.ofSeconds(10));
        }
        System.out.printf(Locale.ROOT, "first action after the guarded launch's release, %d rounds: median %d ms, max %d ms%n",
                rounds, median(first), max(first));
        System.out.printf(Locale.ROOT, "all %d back home after the guarded launch ended: median %d ms, max %d ms%n",
                launches, median(back), max(back));
    }

    private PreparedLaunch guarded(final String name) {
        PreparedLaunch p = registry.prepare(LaunchRequest.of("tests-" + name, "normal").pendingFor(Duration.ofSeconds(30)));
        String why = registry.guard(p.id(), "tests " + name, "tests");
        if (!why.isEmpty()) {
            throw new IllegalStateException("not guarded: " + why);
        }
        return p;
    }

    private Process launch(final PreparedLaunch prepared, final String script) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(prepared.prefix(List.of("/bin/sh", "-c", script))).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put(LaunchMarks.MARKER, prepared.id());
        Process p = pb.start();
        started.add(p);
        registry.release(prepared.id(), Duration.ofSeconds(10));
        return p;
    }

    /** A shell step's loop: its launched shell exits at once, the loop runs on re-parented with the marker only. */
    private long orphanLoop(final String tag) throws Exception {
        Process shell = launch(registry.prepare(LaunchRequest.of("compile-block", "normal")
                .pendingFor(Duration.ofSeconds(30))), "(exec /bin/sh -c ': " + tag + "; " + BUSY + "') &");
        shell.waitFor(10, TimeUnit.SECONDS);
        long[] pid = new long[1];
        await(() -> {
            pid[0] = ProcessHandle.allProcesses().filter(h -> h.info().arguments()
                    .map(a -> a.length > 1 && a[1].contains(": " + tag + ";")).orElse(false))
                    .mapToLong(ProcessHandle::pid).findFirst().orElse(0);
            return pid[0] != 0;
        }, 10_000);
        if (pid[0] == 0) {
            throw new IllegalStateException("the loop " + tag + " did not start");
        }
        return pid[0];
    }

    private boolean anyLowered(final List<String> homes) {
        for (int i = 0; i < loops.size(); i++) {
            if (!cgroups.cpuCgroupOf(loops.get(i)).equals(homes.get(i))) {
                return true;
            }
        }
        return false;
    }

    private boolean allHome(final List<String> homes) {
        for (int i = 0; i < loops.size(); i++) {
            if (!cgroups.cpuCgroupOf(loops.get(i)).equals(homes.get(i))) {
                return false;
            }
        }
        return true;
    }

    /** On-CPU time per thread name (cut at 15 characters, as the kernel keeps it) and of the whole JVM over a window. */
    private record Window(java.util.Map<String, Long> threadNanos, long jvmTicks, long wallNanos) {
        static Window over(final int seconds) throws Exception {
            long t0 = System.nanoTime();
            java.util.Map<String, Long> a = byThreadName();
            long c0 = jvmCpuTicks();
            Thread.sleep(TimeUnit.SECONDS.toMillis(seconds));
            java.util.Map<String, Long> b = byThreadName();
            long c1 = jvmCpuTicks();
            java.util.Map<String, Long> d = new java.util.HashMap<>();
            b.forEach((tid, nanos) -> d.merge(nameOf(tid), nanos - a.getOrDefault(tid, 0L), Long::sum));
            return new Window(d, c1 - c0, System.nanoTime() - t0);
        }

        /** Percent of one CPU used by the threads whose name starts so. */
        double share(final String prefix) {
            long sum = 0;
            for (var e : threadNanos.entrySet()) {
                if (e.getKey().startsWith(prefix)) {
                    sum += e.getValue();
                }
            }
            return 100.0 * sum / wallNanos;
        }

        /** The threads (by name) that used more than {@code percent} of one CPU, busiest first. */
        String busiest(final double percent) {
            java.util.Map<String, Long> byName = new java.util.TreeMap<>(threadNanos);
            return byName.entrySet().stream().filter(e -> 100.0 * e.getValue() / wallNanos > percent)
                    .sorted(java.util.Map.Entry.<String, Long>comparingByValue().reversed())
                    .map(e -> String.format(Locale.ROOT, "%s %.2f%%", e.getKey(), 100.0 * e.getValue() / wallNanos))
                    .collect(java.util.stream.Collectors.joining(", "));
        }

        double jvmShare() {
            return 100.0 * jvmTicks * 10_000_000L / wallNanos;
        }

        private static String nameOf(final String tidAndName) {
            return tidAndName.substring(tidAndName.indexOf(' ') + 1);
        }

        /** "TID name" to on-CPU nanoseconds (schedstat), for every live thread of this JVM. */
        private static java.util.Map<String, Long> byThreadName() throws IOException {
            java.util.Map<String, Long> out = new java.util.HashMap<>();
            try (var tasks = Files.list(Path.of("/proc/self/task"))) {
                for (Path t : (Iterable<Path>) tasks::iterator) {
                    try {
                        out.put(t.getFileName() + " " + Files.readString(t.resolve("comm")).trim(),
                                Long.parseLong(Files.readString(t.resolve("schedstat")).trim().split(" ")[0]));
                    } catch (IOException gone) {
                        // a thread that ended meanwhile
                    }
                }
            }
            return out;
        }

        /** utime + stime of this process, in clock ticks (100 per second). */
        private static long jvmCpuTicks() throws IOException {
            String stat = Files.readString(Path.of("/proc/self/stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(f[11]) + Long.parseLong(f[12]);
        }
    }

    private static long pollUntil(final BooleanSupplier condition, final long since, final long millis) throws InterruptedException {
        long deadline = since + TimeUnit.MILLISECONDS.toNanos(millis);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                return -1;
            }
            Thread.sleep(2);
        }
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since);
    }

    private static void await(final BooleanSupplier condition, final long millis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
    }

    private static void stop(final Process p) throws InterruptedException {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        p.waitFor(10, TimeUnit.SECONDS);
    }

    private static long median(final long[] v) {
        long[] s = v.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }

    private static long max(final long[] v) {
        return Arrays.stream(v).max().orElse(-1);
    }

    private void close() throws InterruptedException {
        registry.close();
        for (long pid : loops) {
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        }
        for (Process p : started) {
            stop(p);
        }
    }
}
