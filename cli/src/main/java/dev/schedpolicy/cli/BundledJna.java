package dev.schedpolicy.cli;

import com.sun.jna.Platform;

import java.io.File;

/**
 * Points JNA at its native library unpacked beside the jar ({@code jna/linux-ARCH/}, which the launcher names in
 * {@value #DIR_PROPERTY}). Otherwise JNA copies the library out of the jar into a new temporary file on every
 * start: a random name, a digest and a delete-on-exit hook, several milliseconds of a wrapper that should cost
 * little more than the JVM (docs/startup.md). Without the property ({@code java -jar}) nothing changes.
 */
final class BundledJna {
    static final String DIR_PROPERTY = "schedpolicy.jna.dir";
    private static final String BOOT_PATH = "jna.boot.library.path";

    private BundledJna() {
    }

    /** Call before anything touches JNA: it reads its boot path once, when its Native class loads. */
    static void use() {
        String dir = System.getProperty(DIR_PROPERTY);
        if (dir == null || System.getProperty(BOOT_PATH) != null) {
            return;
        }
        File arch = new File(dir, Platform.RESOURCE_PREFIX);
        if (new File(arch, System.mapLibraryName("jnidispatch")).isFile()) {
            System.setProperty(BOOT_PATH, arch.getPath());
        }
    }
}
