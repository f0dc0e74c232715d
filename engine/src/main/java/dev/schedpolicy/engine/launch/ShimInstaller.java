package dev.schedpolicy.engine.launch;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Installs the park-and-release shim as a file in the private state directory. It is a file, not an
 * inline {@code sh -c} script, because Jenkins expands $VARS in command arguments.
 */
final class ShimInstaller {
    private static final byte[] SHIM = loadShim();
    /** Content-addressed, so an agent running two plugin versions never mixes shims. */
    static final String FILE_NAME = "park-shim-" + digest(SHIM) + ".sh";

    private ShimInstaller() {
    }

    static Path install(final Path stateDir, final long ownerUid) {
        StateDirs.ensurePrivate(stateDir, ownerUid);
        Path shim = stateDir.resolve(FILE_NAME);
        if (Files.isRegularFile(shim)) {
            return shim;
        }
        try {
            Path tmp = Files.createTempFile(stateDir, "shim", ".tmp");
            Files.write(tmp, SHIM);
            Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("r--------"));
            try {
                Files.move(tmp, shim, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, shim, StandardCopyOption.REPLACE_EXISTING);
            }
            return shim;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot install the launch shim in " + stateDir + ": " + e.getMessage(), e);
        }
    }

    private static byte[] loadShim() {
        try (InputStream in = ShimInstaller.class.getResourceAsStream("park-shim.sh")) {
            if (in == null) {
                throw new IllegalStateException("park-shim.sh is missing from the engine jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read park-shim.sh from the engine jar", e);
        }
    }

    private static String digest(final byte[] content) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content)).substring(0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
