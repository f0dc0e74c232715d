package dev.schedpolicy.engine.launch;

import dev.schedpolicy.engine.policy.Policy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * Starts a process from a fresh platform thread that first puts the policy on itself: scheduling
 * attributes, nice, I/O priority, affinity and (cgroup v1) cgroup membership are inherited across
 * fork and kept across exec, so the child's first instruction already runs under the policy. The
 * thread then dies, which matters because an unprivileged thread can never raise itself back.
 */
public final class PolicyThreadLauncher {
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
        config.limits().check(policy, Runtime.getRuntime().availableProcessors());
        List<String> warnings = new ArrayList<>();
        CpuGroupLease group = GroupLeases.create(config.groups(), policy, warnings);
        if (group != null && !group.canPlaceThreads()) {
            return startParked(builder, policy, group, warnings);
        }
        try {
            SpawnResult spawned = spawnOnPolicyThread(builder, policy, group);
            warnings.addAll(spawned.warnings);
            AppliedPolicy applied = confirmOnChild(spawned, policy, group, warnings);
            return new PolicedProcess(spawned.process, applied, warnings, group);
        } catch (IOException | RuntimeException e) {
            if (group != null) {
                group.close();
            }
            throw e;
        }
    }

    private PolicedProcess startParked(final ProcessBuilder builder, final Policy policy, final CpuGroupLease group,
            final List<String> warnings) throws IOException {
        try (Handshake handshake = ParkAndRelease.prepare(policy, config, group)) {
            List<String> command = new ArrayList<>(handshake.commandPrefix());
            command.addAll(builder.command());
            List<String> original = builder.command();
            Process process;
            try {
                builder.command(command);
                process = builder.start();
            } finally {
                builder.command(original);
            }
            try {
                PolicedLaunch released = handshake.release();
                warnings.addAll(released.warnings());
                return new PolicedProcess(process, released.applied(), warnings, group);
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
        Object[] outcome = new Object[1];
        Thread thread = new Thread(() -> {
            try {
                outcome[0] = applyAndSpawn(builder, policy, group);
            } catch (IOException | RuntimeException | Error e) {
                outcome[0] = e;
            }
        }, "schedpolicy-launch");
        thread.setDaemon(true);
        thread.start();
        boolean interrupted = false;
        while (true) {
            try {
                thread.join();
                break;
            } catch (InterruptedException e) {
                // the launch must finish or fail on its own; abandoning it could leak the child
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (outcome[0] instanceof IOException e) {
            throw e;
        }
        if (outcome[0] instanceof RuntimeException e) {
            throw e;
        }
        if (outcome[0] instanceof Error e) {
            throw e;
        }
        return (SpawnResult) outcome[0];
    }

    /** Runs on the fresh thread, which dies right after; nothing here may touch a pooled thread. */
    private SpawnResult applyAndSpawn(final ProcessBuilder builder, final Policy policy, final CpuGroupLease group)
            throws IOException {
        int tid = config.kernel().gettid();
        List<String> warnings = new ArrayList<>();
        if (group != null) {
            group.placeThread(tid);
        }
        warnings.addAll(applier.apply(tid, policy));
        long self = ProcessHandle.current().pid();
        AppliedPolicy onThread = readBack.read(self, OptionalLong.of(tid), "launching thread", policy,
                group == null ? null : group.path()).orElseThrow(() -> new PolicyApplyException(
                        "cannot read back the launching thread " + tid + " from /proc"));
        Verdicts.check(onThread, policy, warnings);
        return new SpawnResult(builder.start(), onThread, warnings);
    }

    /** The child inherited the thread's attributes at fork; read it too while it lives, as the stronger proof. */
    private AppliedPolicy confirmOnChild(final SpawnResult spawned, final Policy policy, final CpuGroupLease group,
            final List<String> warnings) {
        String expectedGroup = group == null ? null : group.path();
        var onChild = readBack.read(spawned.process.pid(), OptionalLong.empty(), "child", policy, expectedGroup);
        if (onChild.isPresent() && !onChild.get().matches()) {
            // a task in do_exit leaves its cgroup before it turns zombie: look again before calling it a mismatch
            sleepBriefly();
            onChild = readBack.read(spawned.process.pid(), OptionalLong.empty(), "child", policy, expectedGroup);
        }
        if (onChild.isEmpty()) {
            AppliedPolicy t = spawned.onThread;
            return new AppliedPolicy(spawned.process.pid(), "launching thread (the child exited before read-back)",
                    t.schedClass(), t.nice(), t.io(), t.cpuCgroup(), t.cpus(), t.mismatches());
        }
        try {
            Verdicts.check(onChild.get(), policy, warnings);
        } catch (PolicyApplyException e) {
            spawned.process.destroyForcibly();
            throw e;
        }
        return onChild.get();
    }

    private static void sleepBriefly() {
        try {
            Thread.sleep(5);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

}
