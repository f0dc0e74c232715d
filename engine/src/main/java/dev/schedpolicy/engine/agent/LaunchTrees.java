package dev.schedpolicy.engine.agent;

import dev.schedpolicy.engine.buildpage.LaunchMarks;
import dev.schedpolicy.engine.proc.ProcFs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The processes of each launch this registry released, so a guard lowers only what the agent launched. A launch's
 * processes are its released PID and that PID's descendants, and, because Jenkins' shell steps run their script in
 * the background of a shell that exits at once (its processes are then re-parented away from the launch), every
 * process whose environment carries the launch's {@link LaunchMarks#MARKER} and their descendants. Each process's
 * environment is read once it says something (the marker scan reads only processes it has not told apart yet), at
 * most every {@link #MARK_SCAN_NANOS}.
 */
final class LaunchTrees {
    static final long MARK_SCAN_NANOS = TimeUnit.MILLISECONDS.toNanos(200);
    /**
     * How long a process that shows no environment yet (one in exec) holds up the end of a launch that has no process
     * left otherwise: it may be the launch's script, just re-parented (an emulated CPU kept one in that window long
     * enough for a guard to end before its script was found, and the script then ran unguarded).
     */
    static final long UNDECIDED_GRACE_NANOS = TimeUnit.SECONDS.toNanos(3);
    /**
     * Launches kept at most, the oldest forgotten first (a guard then does not lower what is left of it: less lowering,
     * never more); an agent's launches alive at once are far fewer.
     */
    static final int MAX_LAUNCHES = 10_000;
    private static final byte[] MARK = (LaunchMarks.MARKER + "=").getBytes(StandardCharsets.US_ASCII);
    /** The kernel threads' parent. */
    private static final int KTHREADD = 2;

    private final ProcFs proc;
    private final long undecidedGraceNanos;
    private final Map<String, Long> roots = new LinkedHashMap<>();
    /**
     * Launches whose released PID was seen ended: never looked up again, since the kernel may give that PID to a
     * process that is no launch's (a guard would lower it), and a shell step's launched shell ends at once.
     */
    private final Set<String> rootEnded = new HashSet<>();
    /**
     * When a prune first found each launch with no process, yet kept it for a young undecided process: a process first
     * seen after that cannot be its script (a script is forked before its launched shell ends), so it holds it no more.
     */
    private final Map<String, Long> emptySince = new HashMap<>();
    /** PID to the launch id its environment names ("" for none, or unreadable), for PIDs alive at the last scan. */
    private Map<Long, String> marks = new HashMap<>();
    /** The same, by launch id (launches with a marked process only): a guard's period reads one launch's. */
    private Map<String, List<Long>> marked = new HashMap<>();
    /** PID to when it was first seen, for PIDs alive at the last scan whose mark could not be told yet. */
    private Map<Long, Long> undecided = new HashMap<>();
    private long lastMarkScan;

    LaunchTrees(final ProcFs proc) {
        this(proc, UNDECIDED_GRACE_NANOS);
    }

    LaunchTrees(final ProcFs proc, final long undecidedGraceNanos) {
        this.proc = proc;
        this.undecidedGraceNanos = undecidedGraceNanos;
    }

    synchronized void add(final String id, final long pid) {
        roots.put(id, pid);
        for (Iterator<String> eldest = roots.keySet().iterator(); roots.size() > MAX_LAUNCHES && eldest.hasNext();) {
            forget(eldest.next());
            eldest.remove();
        }
    }

    synchronized boolean contains(final String id) {
        return roots.containsKey(id);
    }

    /** The live processes of launch {@code id}; empty once they have all ended (or for an unknown id). */
    synchronized List<Long> processes(final String id) {
        return processes(id, true);
    }

    /**
     * The live processes of launch {@code id}; with {@code fresh}, "none" is said only after a scan of /proc just now
     * (an ending is decided on it), else the last scan's word stands.
     */
    private List<Long> processes(final String id, final boolean fresh) {
        Long root = roots.get(id);
        if (root == null) {
            return List.of();
        }
        boolean scanned = scanMarksIfDue(false);
        List<Long> out = collect(id, root);
        if (fresh && out.isEmpty() && !scanned) {
            // "none left" ends a guard: said only after a fresh scan, since a shell step's launched shell exits at once
            // and its script may have begun after the last scan
            scanMarksIfDue(true);
            out = collect(id, root);
        }
        return out;
    }

    /**
     * Whether launch {@code id} has ended: no process of it is left, and no process that could still turn out to be one
     * of it (its environment not readable yet) is younger than {@link #UNDECIDED_GRACE_NANOS}. An unknown id has ended.
     */
    synchronized boolean ended(final String id) {
        if (!processes(id).isEmpty()) {
            return false;
        }
        long now = System.nanoTime();
        for (long since : undecided.values()) {
            if (now - since < undecidedGraceNanos) {
                return false;
            }
        }
        return true;
    }

    private List<Long> collect(final String id, final long root) {
        Set<Long> out = new LinkedHashSet<>();
        if (!rootEnded.contains(id) && !addTree(root, out)) {
            rootEnded.add(id);
        }
        for (long pid : marked.getOrDefault(id, List.of())) {
            addTree(pid, out);
        }
        return List.copyOf(out);
    }

    /**
     * Every live process of every launch but {@code excluded}, with the launch it belongs to, as of the last scan (a
     * launch seen with no process is not worth a scan of its own here: the next regular one finds what it started).
     */
    synchronized Map<Long, String> processesOfAllBut(final Set<String> excluded) {
        Map<Long, String> out = new LinkedHashMap<>();
        for (String id : new ArrayList<>(roots.keySet())) {
            if (!excluded.contains(id)) {
                for (long pid : processes(id, false)) {
                    out.putIfAbsent(pid, id);
                }
            }
        }
        return out;
    }

    /**
     * Forgets launches none of whose processes lives any more, as {@link #ended} tells, on one scan of /proc for all:
     * a scan each made a busy agent's prune hold this lock, which every release waits for, longer with every launch
     * (while steps start back to back some process is always young and undecided, so nothing was forgotten).
     */
    synchronized void prune() {
        scanMarksIfDue(true);
        long now = System.nanoTime();
        // the first sight of the earliest undecided process still in its grace: only a launch found empty by then is held
        long oldestYoung = Long.MAX_VALUE;
        for (long since : undecided.values()) {
            if (now - since < undecidedGraceNanos) {
                oldestYoung = Math.min(oldestYoung, since);
            }
        }
        for (Iterator<Map.Entry<String, Long>> it = roots.entrySet().iterator(); it.hasNext();) {
            Map.Entry<String, Long> root = it.next();
            String id = root.getKey();
            if (!collect(id, root.getValue()).isEmpty()) {
                emptySince.remove(id);
                continue;
            }
            if (oldestYoung > emptySince.computeIfAbsent(id, k -> now)) {
                forget(id);
                it.remove();
            }
        }
    }

    private void forget(final String id) {
        rootEnded.remove(id);
        emptySince.remove(id);
    }

    synchronized int size() {
        return roots.size();
    }

    /** Adds the process and its descendants; false when it has ended. */
    private boolean addTree(final long pid, final Set<Long> out) {
        // a zombie has ended: where nothing reaps orphans (an agent that is a container's PID 1) it would keep its
        // launch, and a guard on it, alive until the block's end
        if (proc.stat(pid).filter(s -> s.state() != 'Z').isEmpty()) {
            return false;
        }
        out.add(pid);
        out.addAll(proc.descendants(pid).orElse(List.of()));
        return true;
    }

    /** Reads the marks of processes not seen before, when due or {@code now}; whether it did. */
    private boolean scanMarksIfDue(final boolean now) {
        long at = System.nanoTime();
        if (!now && lastMarkScan != 0 && at - lastMarkScan < MARK_SCAN_NANOS) {
            return false;
        }
        lastMarkScan = at;
        List<Long> pids = proc.pids();
        if (pids.isEmpty()) {
            return false; // keeps the last scan: a launch is not forgotten because /proc could not be listed once
        }
        Map<Long, String> next = new HashMap<>();
        Map<Long, Long> stillUndecided = new HashMap<>();
        for (long pid : pids) {
            String known = marks.get(pid);
            String mark = known != null ? known : markOf(pid);
            if (mark != null) {
                next.put(pid, mark);
            } else {
                stillUndecided.put(pid, undecided.getOrDefault(pid, at));
            }
        }
        marks = next;
        Map<String, List<Long>> byLaunch = new HashMap<>();
        next.forEach((pid, mark) -> {
            if (!mark.isEmpty()) {
                byLaunch.computeIfAbsent(mark, k -> new ArrayList<>()).add(pid);
            }
        });
        marked = byLaunch;
        undecided = stillUndecided;
        return true;
    }

    /**
     * The launch id in the process's environment; "" when it has none or may not be read (another user's process);
     * null when it cannot be told yet, so that the next scan reads it again: an empty environment is what a process
     * shows while it execs (a shell step's script, seen in that window on a slow CPU, was never found again) or once it
     * is a zombie (told apart here: a zombie has ended); only a kernel thread's is empty for good.
     */
    private String markOf(final long pid) {
        byte[] env;
        try {
            env = Files.readAllBytes(proc.root().resolve(Long.toString(pid)).resolve("environ"));
        } catch (AccessDeniedException e) {
            return "";
        } catch (IOException e) {
            return null;
        }
        if (env.length == 0) {
            return proc.stat(pid).map(s -> s.ppid() == KTHREADD || pid == KTHREADD || s.state() == 'Z' ? "" : null).orElse(null);
        }
        int start = 0;
        for (int i = 0; i <= env.length; i++) {
            if (i == env.length || env[i] == 0) {
                if (startsWith(env, start, i)) {
                    return new String(env, start + MARK.length, i - start - MARK.length, StandardCharsets.US_ASCII);
                }
                start = i + 1;
            }
        }
        return "";
    }

    private static boolean startsWith(final byte[] env, final int from, final int to) {
        if (to - from < MARK.length) {
            return false;
        }
        for (int k = 0; k < MARK.length; k++) {
            if (env[from + k] != MARK[k]) {
                return false;
            }
        }
        return true;
    }
}
