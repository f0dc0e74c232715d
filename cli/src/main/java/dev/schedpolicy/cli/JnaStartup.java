package dev.schedpolicy.cli;

import com.sun.jna.Platform;

import java.io.File;

/**
 * JNA settings for a command that lives a tenth of a second (docs/startup.md); each is left alone when the user
 * set it. Call before anything touches JNA: it reads them once, when its classes initialise.
 * <ul>
 * <li>Its native library from {@code jna/linux-ARCH/} beside the jar, which the launcher names in
 * {@value #DIR_PROPERTY}: otherwise JNA copies the library out of the jar into a new temporary file on every
 * start (a random name, a digest, a delete-on-exit hook). Without the property ({@code java -jar}) JNA copies it
 * as before.</li>
 * <li>An empty platform library path: otherwise JNA runs {@code /sbin/ldconfig -p} on every start to build a
 * search path for libraries looked up by name. The engine only binds libc, which JNA takes from the process
 * itself.</li>
 * </ul>
 */
final class JnaStartup {
    static final String DIR_PROPERTY = "schedpolicy.jna.dir";
    private static final String BOOT_PATH = "jna.boot.library.path";
    private static final String PLATFORM_PATH = "jna.platform.library.path";

    private JnaStartup() {
    }

    static void configure() {
        if (System.getProperty(PLATFORM_PATH) == null) {
            System.setProperty(PLATFORM_PATH, "");
        }
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
