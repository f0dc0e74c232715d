package dev.schedpolicy.engine.launch;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/** The private directory holding the shim and handshake FIFOs: ours, mode 0700, or refused. */
final class StateDirs {
    private StateDirs() {
    }

    /**
     * The first usable of: {@code $XDG_RUNTIME_DIR/schedpolicy} (per user, nobody else can create names in it),
     * {@code TMP/schedpolicy-UID}, {@code $HOME/.cache/schedpolicy}. Any local user can pre-create the predictable
     * name in a shared /tmp (a directory, a symlink, a file), which the owner could not even remove from a sticky
     * /tmp: a name that exists and is not a directory of this user is skipped. The XDG and home candidates count
     * only inside a directory the user owns and others cannot write, so nobody else can have put the name there.
     * Nothing is created here (launches that never park need no directory); {@link #ensurePrivate} does that on
     * first use and still refuses a name someone took in between.
     *
     * @return the chosen directory; when none is usable, the /tmp one, whose use then fails with the reason
     */
    static Path choose(final long uid, final Map<String, String> env, final Path tmp) {
        List<Path> candidates = new ArrayList<>();
        ownPrivateDir(env.get("XDG_RUNTIME_DIR"), uid).ifPresent(d -> candidates.add(d.resolve("schedpolicy")));
        Path shared = tmp.resolve("schedpolicy-" + uid);
        candidates.add(shared);
        ownPrivateDir(env.get("HOME"), uid).ifPresent(d -> candidates.add(d.resolve(".cache").resolve("schedpolicy")));
        for (Path candidate : candidates) {
            if (!Files.exists(candidate, LinkOption.NOFOLLOW_LINKS) || ownDirectory(candidate, uid)) {
                return candidate;
            }
        }
        return shared;
    }

    private static boolean ownDirectory(final Path dir, final long uid) {
        try {
            return Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)
                    && ((Integer) Files.getAttribute(dir, "unix:uid", LinkOption.NOFOLLOW_LINKS)).longValue() == uid;
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    private static Optional<Path> ownPrivateDir(final String path, final long uid) {
        if (path == null || path.isBlank() || !path.startsWith("/")) {
            return Optional.empty();
        }
        Path dir = Path.of(path);
        try {
            if (!ownDirectory(dir, uid)) {
                return Optional.empty();
            }
            int mode = (Integer) Files.getAttribute(dir, "unix:mode", LinkOption.NOFOLLOW_LINKS);
            return (mode & 022) == 0 ? Optional.of(dir) : Optional.empty();
        } catch (IOException | UnsupportedOperationException e) {
            return Optional.empty();
        }
    }

    static void ensurePrivate(final Path dir, final long ownerUid) {
        try {
            if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
                Files.createDirectories(dir.getParent());
                try {
                    Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
                } catch (java.nio.file.FileAlreadyExistsException raced) {
                    // another launch created it first; the checks below still apply
                }
            }
            if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
                throw new IllegalStateException("state directory " + dir + " is not a directory; remove it or choose another one");
            }
            int uid = (Integer) Files.getAttribute(dir, "unix:uid", LinkOption.NOFOLLOW_LINKS);
            if (uid != ownerUid) {
                throw new IllegalStateException("state directory " + dir + " belongs to uid " + uid + ", not to this user (uid "
                        + ownerUid + "); another user could swap the launch shim, so it is not used (set XDG_RUNTIME_DIR or HOME"
                        + " to a private directory of yours)");
            }
            Set<PosixFilePermission> perms = Files.getPosixFilePermissions(dir, LinkOption.NOFOLLOW_LINKS);
            if (!perms.equals(PosixFilePermissions.fromString("rwx------"))) {
                Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare state directory " + dir + ": " + e.getMessage(), e);
        }
    }

    static void deleteTree(final Path dir) {
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove " + dir + ": " + e.getMessage(), e);
        }
    }
}
