package dev.schedpolicy.engine.launch;

import dev.schedpolicy.engine.policy.Policy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.atomic.AtomicLong;

/**
 * For launches that need no shim but files of their own (a container's --cidfile): the same checks as every launch
 * and a private directory in the state directory, named like a handshake so a dead JVM's are swept with them.
 */
public final class LaunchDirs {
    private static final AtomicLong SEQUENCE = new AtomicLong();
    private static final int MAX_TAKEN = 100_000;
    /** In a long-lived directory: the {@link ThisJvm#token()} of the JVM that made it, so an exec'd successor sweeps it. */
    static final String OWNER = "owner";

    private LaunchDirs() {
    }

    /** The embedder's limits, the caller's own priority and this machine's CPUs, as {@link ParkAndRelease#prepare} checks them. */
    public static void checkFits(final LaunchConfig config, final Policy policy) {
        MachineFit.check(config, policy);
    }

    /** A fresh directory (0700) in the state directory, which is made private first. */
    public static Path create(final LaunchConfig config) {
        return create(config, ParkAndRelease.HANDSHAKE_PREFIX, "c");
    }

    /**
     * A fresh directory (0700) in the state directory for something that outlives launches (the container client desk
     * of an agent): swept like a handshake once this JVM is gone, but not one.
     */
    public static Path createLongLived(final LaunchConfig config) {
        Path dir = create(config, ParkAndRelease.LONG_LIVED_PREFIX, "");
        ParkAndRelease.sweepOnce(config.stateDir());
        try {
            Files.writeString(dir.resolve(OWNER), ThisJvm.token() + "\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            remove(dir);
            throw new UncheckedIOException("cannot write " + dir.resolve(OWNER) + ": " + e.getMessage(), e);
        }
        return dir;
    }

    /**
     * The next free name: the sequence is this copy of the engine's, and a copy loaded again into the same JVM (an agent
     * that reconnected) starts it over while the previous copy's directories still exist.
     */
    private static Path create(final LaunchConfig config, final String prefix, final String kind) {
        StateDirs.ensurePrivate(config.stateDir(), config.kernel().geteuid());
        if (config.stateDir().toString().contains("$")) {
            // the path goes into the command line (--cidfile=...), where Jenkins' LocalLauncher expands $VARS
            throw new IllegalStateException("state directory " + config.stateDir()
                    + " contains '$', which Jenkins would expand in the command line; choose another directory");
        }
        for (int attempt = 0;; attempt++) {
            Path dir = config.stateDir().resolve(prefix + ProcessHandle.current().pid() + "-" + kind + SEQUENCE.incrementAndGet());
            try {
                return Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            } catch (FileAlreadyExistsException e) {
                if (attempt >= MAX_TAKEN) {
                    throw new UncheckedIOException("cannot create launch directory " + dir + ": the last " + MAX_TAKEN
                            + " names were taken", e);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create launch directory " + dir + ": " + e.getMessage(), e);
            }
        }
    }

    /**
     * The directory {@code name} (0700) in the state directory, which is made private first; made when missing, and
     * shared by every JVM of the user (what one wrote down, the next reads: the homes of a guard that was killed).
     */
    public static Path shared(final LaunchConfig config, final String name) {
        StateDirs.ensurePrivate(config.stateDir(), config.kernel().geteuid());
        Path dir = config.stateDir().resolve(name);
        try {
            return Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        } catch (FileAlreadyExistsException e) {
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir + ": " + e.getMessage(), e);
        }
    }

    /**
     * Removes what JVMs that are gone left in the state directory (handshakes, long-lived directories), including an
     * earlier JVM of this very PID; an agent calls it as it connects, so what a killed or exec'd agent left does not wait
     * for a launch.
     */
    public static void sweepLeftovers(final LaunchConfig config) {
        ParkAndRelease.sweepStale(config.stateDir());
    }

    /** Removes a directory made by {@link #create}; a failure is left to the sweep of a later launch. */
    public static void remove(final Path dir) {
        try {
            StateDirs.deleteTree(dir);
        } catch (UncheckedIOException e) {
            // swept with the handshakes once this JVM is gone
        }
    }
}
