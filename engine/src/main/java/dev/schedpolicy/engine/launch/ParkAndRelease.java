package dev.schedpolicy.engine.launch;

import dev.schedpolicy.engine.policy.Policy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * Launches started by someone else (Jenkins starts its processes inside remoting): the command is
 * prefixed with a shim that reports its PID and parks; {@link Handshake#release()} applies the
 * policy to that PID, verifies it from /proc and lets the shim exec the real command.
 */
public final class ParkAndRelease {
    private static final AtomicLong SEQUENCE = new AtomicLong();
    private static final Set<Path> SWEPT = ConcurrentHashMap.newKeySet();
    static final String HANDSHAKE_PREFIX = "hs-";
    /** Directories of this JVM that outlive launches (see {@link LaunchDirs#createLongLived}); swept the same way. */
    static final String LONG_LIVED_PREFIX = "jvm-";

    private ParkAndRelease() {
    }

    /** Prepares one launch; the caller must prepend {@link Handshake#commandPrefix()} and then release or close. */
    public static Handshake prepare(final Policy policy, final LaunchConfig config) {
        MachineFit.check(config, policy);
        List<String> warnings = new ArrayList<>();
        CpuGroupLease group = GroupLeases.create(config.groups(), policy, warnings);
        try {
            return prepare(policy, config, group, true, warnings);
        } catch (RuntimeException e) {
            if (group != null) {
                group.close();
            }
            throw e;
        }
    }

    static Handshake prepare(final Policy policy, final LaunchConfig config, final CpuGroupLease group) {
        return prepare(policy, config, group, false, new ArrayList<>());
    }

    private static Handshake prepare(final Policy policy, final LaunchConfig config, final CpuGroupLease group,
            final boolean ownsGroup, final List<String> warnings) {
        long uid = config.kernel().geteuid();
        Path shim;
        try {
            shim = ShimInstaller.install(config.stateDir(), uid);
        } catch (UncheckedIOException e) {
            throw unusableStateDir(e);
        }
        sweepOnce(config.stateDir());
        long self = ProcessHandle.current().pid();
        Path dir = config.stateDir().resolve(HANDSHAKE_PREFIX + self + "-" + SEQUENCE.incrementAndGet());
        if (dir.toString().contains("$")) {
            throw new IllegalStateException("state directory " + config.stateDir()
                    + " contains '$', which Jenkins would expand in the command line; choose another directory");
        }
        try {
            Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            config.kernel().mkfifo(dir.resolve("pid").toString(), 0600);
            config.kernel().mkfifo(dir.resolve("go").toString(), 0600);
            return new Handshake(policy, config, group, ownsGroup, dir, List.of("/bin/sh", shim.toString(), dir.toString()), warnings);
        } catch (IOException e) {
            StateDirs.deleteTree(dir);
            throw unusableStateDir(new UncheckedIOException("cannot create launch handshake " + dir + ": " + e.getMessage(), e));
        } catch (RuntimeException e) {
            StateDirs.deleteTree(dir);
            throw e;
        }
    }

    /**
     * A state directory that cannot be made or written (read-only mount, full disk) means no launch can park: a
     * refusal like any other the policy meets, in words (it escaped as an I/O exception, a stack trace in Jenkins).
     */
    private static PolicyApplyException unusableStateDir(final UncheckedIOException e) {
        return new PolicyApplyException(e.getMessage() + " (the launch shim and its handshakes need a writable local"
                + " directory with free space: free some, or start this JVM with XDG_RUNTIME_DIR or -Djava.io.tmpdir"
                + " pointing at another)", e);
    }

    /** The first launch of this copy of the engine in {@code stateDir} sweeps it. */
    static void sweepOnce(final Path stateDir) {
        if (SWEPT.add(stateDir)) {
            sweepStale(stateDir);
        }
    }

    /**
     * Handshakes of JVMs that died mid-launch would otherwise stay forever; only dead owners' are removed, and the
     * long-lived directories of an earlier JVM of this very PID (one that exec'd into this one).
     */
    static void sweepStale(final Path stateDir) {
        try (Stream<Path> entries = Files.list(stateDir)) {
            for (Path p : entries.toList()) {
                String name = p.getFileName().toString();
                String prefix = name.startsWith(HANDSHAKE_PREFIX) ? HANDSHAKE_PREFIX : name.startsWith(LONG_LIVED_PREFIX)
                        ? LONG_LIVED_PREFIX : null;
                if (prefix == null) {
                    continue;
                }
                String[] parts = name.substring(prefix.length()).split("-");
                if (parts.length == 2 && parts[0].matches("\\d+")
                        && ProcessHandle.of(Long.parseLong(parts[0])).map(ProcessHandle::isAlive).orElse(false)
                        && !(prefix.equals(LONG_LIVED_PREFIX) && madeByEarlierJvm(p, Long.parseLong(parts[0])))) {
                    continue;
                }
                StateDirs.deleteTree(p);
            }
        } catch (IOException | UncheckedIOException e) {
            // sweeping is housekeeping: a failure here must not fail the launch
        }
    }

    /** A directory of this PID whose owner is another JVM; one that names none (being made, or older) goes by the PID. */
    private static boolean madeByEarlierJvm(final Path dir, final long pid) {
        if (pid != ProcessHandle.current().pid()) {
            return false;
        }
        try {
            return !Files.readString(dir.resolve(LaunchDirs.OWNER), StandardCharsets.UTF_8).strip().equals(ThisJvm.token());
        } catch (IOException e) {
            return false;
        }
    }
}
