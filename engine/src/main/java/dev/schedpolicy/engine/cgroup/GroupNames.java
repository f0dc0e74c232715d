package dev.schedpolicy.engine.cgroup;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Names our groups schedpolicy-PID-TOKEN-N. The creator's PID in the name lets the sweeper tell a crashed run's
 * leftovers from a live run's group that is merely still empty. TOKEN is drawn at random each time these classes are
 * loaded: a Jenkins agent loads the engine again with every connection while its JVM (and PID) stays, and a counter
 * alone restarted at 0 and gave a name again once the earlier group was removed, so an earlier block's end, which ends
 * the groups its build recorded, killed another build's work.
 */
final class GroupNames {
    static final String PREFIX = "schedpolicy-";
    /** 48 random bits: two class loads of one JVM drawing the same token is as likely as guessing a 15-digit number. */
    private static final String TOKEN = token();
    private static final AtomicLong COUNTER = new AtomicLong();
    private static final int ATTEMPTS = 1000;

    private GroupNames() {
    }

    /** From /dev/urandom straight: SecureRandom's providers would add their start-up to every `schedpolicy run`. */
    private static String token() {
        byte[] bits = new byte[6];
        try (InputStream in = Files.newInputStream(Path.of("/dev/urandom"))) {
            if (in.readNBytes(bits, 0, bits.length) != bits.length) {
                throw new IOException("short read");
            }
        } catch (IOException e) {
            new SecureRandom().nextBytes(bits);
        }
        return HexFormat.of().formatHex(bits);
    }

    /** A fresh name for a group another program makes (the sweeper tells its leftovers by the PID, as of ours). */
    static String next() {
        return PREFIX + ProcessHandle.current().pid() + "-" + TOKEN + "-" + COUNTER.getAndIncrement();
    }

    /** mkdir of a fresh name; a name taken by an earlier run whose PID we now reuse is skipped. */
    static Path mkdirUnique(final CgroupFiles files, final Path parent) {
        for (int i = 0; i < ATTEMPTS; i++) {
            Path dir = parent.resolve(PREFIX + ProcessHandle.current().pid() + "-" + TOKEN + "-" + COUNTER.getAndIncrement());
            try {
                files.mkdir(dir);
                return dir;
            } catch (FileAlreadyExistsException taken) {
                // next counter value
            } catch (IOException e) {
                throw CgroupFiles.failure("create cgroup", dir, e, fixFor(e));
            }
        }
        throw new CgroupException("cannot create a cgroup under " + parent + ": " + ATTEMPTS
                + " names starting with " + PREFIX + ProcessHandle.current().pid() + "-" + TOKEN + "- are taken; remove stale"
                + " groups (CgroupSystem.sweepStale)");
    }

    static boolean isOurs(final Path dir) {
        return dir.getFileName() != null && dir.getFileName().toString().startsWith(PREFIX);
    }

    static OptionalLong creatorPid(final Path dir) {
        String[] parts = dir.getFileName().toString().substring(PREFIX.length()).split("-");
        try {
            return OptionalLong.of(Long.parseLong(parts[0]));
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    static String fixFor(final IOException e) {
        if (ErrnoWords.is(e, "EACCES") || ErrnoWords.is(e, "EPERM")) {
            return "delegate a cgroup to this user (systemd: Delegate=yes on the agent's service, or"
                    + " systemd-run --user -p Delegate=yes) or configure a parent this user may write";
        }
        if (ErrnoWords.is(e, "EROFS")) {
            return "the cgroup filesystem is mounted read-only, as in most containers: give the container a"
                    + " writable cgroup (docker/podman --cgroup-parent, --cgroupns=private with a rw cgroup mount)"
                    + " or run without cgroup limits";
        }
        return "";
    }
}
