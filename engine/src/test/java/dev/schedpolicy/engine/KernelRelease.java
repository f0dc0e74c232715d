package dev.schedpolicy.engine;

/** The running kernel's release, for tests whose subject a kernel may lack (they pick another, never skip). */
public final class KernelRelease {
    private KernelRelease() {
    }

    /** Whether this kernel ("6.1.0-56-amd64", from os.version) is at least MAJOR.MINOR. */
    public static boolean atLeast(final int major, final int minor) {
        String[] v = System.getProperty("os.version").split("[.-]");
        int ma = Integer.parseInt(v[0]);
        int mi = Integer.parseInt(v[1]);
        return ma > major || ma == major && mi >= minor;
    }

    /**
     * A cgroup policy part for tests about launching, not about cpu.idle: cpu-idle where the kernel has cpu.idle
     * (5.15+), else the lowest weight, so that such a test still launches into a group on 5.10.
     */
    public static String idleGroupPart() {
        return atLeast(5, 15) ? "cpu-idle" : "weight1";
    }
}
