package dev.schedpolicy.engine.launch;

import dev.schedpolicy.engine.linux.SchedAttr;
import dev.schedpolicy.engine.linux.SyscallException;
import dev.schedpolicy.engine.policy.Policy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;

/**
 * Starts a process from a fresh platform thread that first puts the policy on itself: scheduling
 * attributes, nice, I/O priority, affinity and (cgroup v1) cgroup membership are inherited across
 * fork and kept across exec, so the child's first instruction already runs under the policy. The
 * thread then dies, which matters because an unprivileged thread can never raise itself back.
 */
public final class PolicyThreadLauncher {
    /** Bound on waiting for the launching thread's OS thread to exit; only the group removal waits longer. */
    static final Duration TASK_EXIT_WAIT = Duration.ofMillis(100);
    private static final long TASK_EXIT_POLL_NANOS = 20_000;
    /** The TIDs of launching threads alive now, whose policy is theirs on purpose. */
    private static final Set<Long> LAUNCHING = ConcurrentHashMap.newKeySet();

    private final LaunchConfig config;
    private final TaskPolicyApplier applier;
    private final ReadBack readBack;

    public PolicyThreadLauncher(final LaunchConfig config) {
        this.config = config;
        this.applier = new TaskPolicyApplier(config.kernel());
        this.readBack = new ReadBack(config.kernel(), config.proc());
    }

    /**
     * Starts {@code builder} under {@code policy}.
     *
     * @throws IOException            as {@link ProcessBuilder#start()} does (command not found, not executable)
     * @throws PolicyApplyException   when the policy cannot be applied or does not read back (under on-unsupported=fail)
     * @throws dev.schedpolicy.engine.policy.InvalidPolicyException when the limits do not allow the policy
     */
    public PolicedProcess start(final ProcessBuilder builder, final Policy policy) throws IOException {
        MachineFit.check(config, policy);
        List<String> warnings = new ArrayList<>();
        CpuGroupLease group = GroupLeases.create(config.groups(), policy, warnings);
        if (group != null && !group.canPlaceThreads()) {
            return startParked(builder, policy, group, warnings);
        }
        try {
            SpawnResult spawned = spawnOnPolicyThread(builder, policy, group);
            warnings.addAll(spawned.warnings);
            AppliedPolicy applied = confirmOnChild(spawned, policy, group, warnings);
            return OwnedLaunches.own(new PolicedProcess(spawned.process, applied, warnings, group));
        } catch (IOException | RuntimeException e) {
            if (group != null) {
                group.close();
            }
            throw e;
        }
    }

    private PolicedProcess startParked(final ProcessBuilder builder, final Policy policy, final CpuGroupLease group,
            final List<String> warnings) throws IOException {
        try {
            CommandLookup.requireRunnable(builder);
        } catch (IOException e) {
            group.close();
            throw e;
        }
        try (Handshake handshake = ParkAndRelease.prepare(policy, config, group)) {
            List<String> command = new ArrayList<>(handshake.commandPrefix());
            command.addAll(builder.command());
            List<String> original = builder.command();
            Process process;
            try {
                builder.command(command);
                process = Caller.spawn(config, builder);
            } finally {
                builder.command(original);
            }
            try {
                PolicedLaunch released = handshake.release();
                warnings.addAll(released.warnings());
                return OwnedLaunches.own(new PolicedProcess(process, released.applied(), warnings, group));
            } catch (RuntimeException e) {
                process.destroyForcibly();
                throw e;
            }
        } catch (IOException | RuntimeException e) {
            group.close();
            throw e;
        }
    }

    private record SpawnResult(Process process, AppliedPolicy onThread, List<String> warnings) {
    }

    private SpawnResult spawnOnPolicyThread(final ProcessBuilder builder, final Policy policy, final CpuGroupLease group)
            throws IOException {
        int[] tid = new int[1];
        try {
            return FreshThread.run("schedpolicy-launch", () -> {
                tid[0] = config.kernel().gettid();
                LAUNCHING.add((long) tid[0]);
                try {
                    return applyAndSpawn(tid[0], builder, policy, group);
                } finally {
                    LAUNCHING.remove((long) tid[0]);
                }
            });
        } finally {
            if (group != null && tid[0] != 0) {
                awaitTaskExit(tid[0]);
            }
        }
    }

    /**
     * join() returns once the Java thread is done, but its OS thread runs on for a moment and, on cgroup v1,
     * still sits in the launch's group: closing the group then found this JVM in it and waited a 10 ms poll
     * interval (10 to 20% of quick launches here). Waiting for the task to leave /proc costs microseconds.
     */
    private void awaitTaskExit(final int tid) {
        Path task = config.proc().root().resolve(ProcessHandle.current().pid() + "/task/" + tid);
        long deadline = System.nanoTime() + TASK_EXIT_WAIT.toNanos();
        while (Files.exists(task) && System.nanoTime() < deadline) {
            LockSupport.parkNanos(TASK_EXIT_POLL_NANOS);
        }
    }

    /** Runs on the fresh thread, which dies right after; nothing here may touch a pooled thread. */
    private SpawnResult applyAndSpawn(final int tid, final ProcessBuilder builder, final Policy policy,
            final CpuGroupLease group) throws IOException {
        List<String> warnings = new ArrayList<>();
        long self = ProcessHandle.current().pid();
        // before anything changes: threads this one starts from here on inherit its group and scheduling
        Set<Long> before = new HashSet<>(config.proc().threads(self));
        try {
            if (group != null) {
                group.placeThread(tid);
            }
            warnings.addAll(applier.apply(tid, policy, group != null));
            AppliedPolicy onThread = readBack.read(self, OptionalLong.of(tid), "launching thread", policy,
                    group == null ? null : group.path()).orElseThrow(() -> new PolicyApplyException(
                            "cannot read back the launching thread " + tid + " from /proc"));
            ReadBackVerdicts.check(onThread, policy, warnings);
            Caller.takeMainThreadSignalMask(config);
            Process process = builder.start();
            return new SpawnResult(process, onThread, warnings);
        } finally {
            // also when the launch fails: a helper left in the group would stop its removal
            restoreHelperThreads(self, tid, before, group, policy.cpus().isPresent());
        }
    }

    /**
     * ProcessBuilder.start() starts a JDK "process reaper" thread whenever none is idle (one per live child), and
     * starts it from the calling thread: this one. JNA does the same with its "JNA Cleaner" thread, which ends
     * after 30 s without work and is started again by the next thread that allocates native memory, which can be
     * this one while it applies the policy (once in about 600 launches left a group that could not be removed).
     * Such a thread inherits the policy and, on v1, the launch's group, where a reaper keeps waiting for this and later children of the JVM (under the group's quota) and stops the
     * group from being removed. Threads born while this one runs are therefore moved back out of the group and given
     * the main thread's scheduling again. The move always works (we may write the parent); raising the scheduling
     * back needs CAP_SYS_NICE or RLIMIT_NICE, so without them those helpers stay lowered, which only delays
     * how soon this JVM notices that a child exited (or frees native memory). Other launch threads born meanwhile are left alone: they
     * register before they change anything. A new thread names itself only once it runs, so its name (still
     * ours at first) cannot tell them apart, and only a thread in our group is moved, since nobody else puts
     * threads there.
     */
    private void restoreHelperThreads(final long self, final int launching, final Set<Long> before, final CpuGroupLease group,
            final boolean affinityChanged) {
        SchedAttr mainAttr = null;
        int mainIo = 0;
        BitSet mainCpus = null;
        for (long t : config.proc().threads(self)) {
            if (t == launching || before.contains(t) || LAUNCHING.contains(t)) {
                continue;
            }
            int helper = (int) t;
            if (group != null && group.canPlaceThreads()
                    && group.path().equals(ReadBack.cpuCgroup(config.proc().cgroupLines(self, OptionalLong.of(t))))) {
                try {
                    group.evictThread(helper);
                } catch (RuntimeException e) {
                    // the group's removal will report it; the launch itself is fine
                }
            }
            try {
                if (mainAttr == null) {
                    mainAttr = config.kernel().getSchedAttr((int) self);
                    mainIo = config.kernel().getIoPriority((int) self);
                    mainCpus = config.kernel().getAffinity((int) self);
                }
                SchedAttr now = config.kernel().getSchedAttr(helper);
                if (now.policy() != mainAttr.policy() || now.nice() != mainAttr.nice()) {
                    config.kernel().setSchedAttr(helper, mainAttr);
                }
                if (config.kernel().getIoPriority(helper) != mainIo) {
                    config.kernel().setIoPriority(helper, mainIo);
                }
                if (affinityChanged) {
                    config.kernel().setAffinity(helper, mainCpus);
                }
            } catch (SyscallException e) {
                // exited meanwhile, or no right to raise it back: see above
            }
        }
    }

    /**
     * The child inherited the thread's attributes at fork; read it too while it lives, as the stronger proof. It is
     * already running the command, so it may have lowered itself further (accepted), and whatever it reads never
     * ends in 125: that code promises the command did not run. A command that raised itself (root may) is a warning.
     */
    private AppliedPolicy confirmOnChild(final SpawnResult spawned, final Policy policy, final CpuGroupLease group,
            final List<String> warnings) {
        String expectedGroup = group == null ? null : group.path();
        var onChild = readBack.read(spawned.process.pid(), OptionalLong.empty(), "child", policy, expectedGroup, true);
        if (onChild.isEmpty()) {
            AppliedPolicy t = spawned.onThread;
            return new AppliedPolicy(spawned.process.pid(), "launching thread (the child exited before read-back)",
                    t.schedClass(), t.nice(), t.io(), t.cpuCgroup(), t.cpus(), t.mismatches());
        }
        if (!onChild.get().matches()) {
            warnings.add("the command raised itself after it started under '" + policy.toCompact() + "': "
                    + String.join("; ", onChild.get().mismatches()));
        }
        return onChild.get();
    }
}
